// A tiny observable value kept in localStorage, so views can subscribe with
// useSyncExternalStore. Storage may be unavailable (private mode, quota): then it lives in memory.

export interface LocalStore<T> {
  get(): T;
  /**
   * The value before anything is stored: what the server renders, and so what hydration uses
   * (useSyncExternalStore's server snapshot) before the browser's own value shows.
   */
  initial(): T;
  set(update: (current: T) => T): void;
  subscribe(listener: () => void): () => void;
}

export function createLocalStore<T>(
  key: string,
  read: (raw: unknown) => T,
  fallback: T,
): LocalStore<T> {
  let value: T | undefined;
  const listeners = new Set<() => void>();

  const load = (): T => {
    // Not in a browser (rendering on the server): Node's own storage is not the visitor's.
    if (typeof window === 'undefined') return fallback;
    try {
      const raw = globalThis.localStorage?.getItem(key);
      return raw ? read(JSON.parse(raw)) : fallback;
    } catch {
      return fallback;
    }
  };

  if (typeof window !== 'undefined') {
    // Another tab changed it.
    window.addEventListener('storage', (event) => {
      if (event.key !== key) return;
      value = load();
      listeners.forEach((l) => l());
    });
  }

  return {
    initial: () => fallback,
    get() {
      value ??= load();
      return value;
    },
    set(update) {
      const next = update(this.get());
      if (Object.is(next, value)) return;
      value = next;
      try {
        globalThis.localStorage?.setItem(key, JSON.stringify(next));
      } catch {
        // Storage full or disabled: keep the value for this page only.
      }
      listeners.forEach((l) => l());
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
