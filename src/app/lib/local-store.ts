// A tiny observable value kept in localStorage, so views can subscribe with
// useSyncExternalStore. A write that storage refuses (full, disabled, private mode) is not
// hidden: `set` says why, and the caller decides whether that loses something the reader must
// hear about (a follow) or nothing that matters (a cache of titles).

/** Why a value could not be kept. */
export type StorageFailure = 'full' | 'unavailable';

export type WriteOutcome = { ok: true } | { ok: false; reason: StorageFailure };

export interface LocalStore<T> {
  get(): T;
  /**
   * The value before anything is stored: what the server renders, and so what hydration uses
   * (useSyncExternalStore's server snapshot) before the browser's own value shows.
   */
  initial(): T;
  /** Stores `update(current)`; when storage refuses it, the value still changes for this page. */
  set(update: (current: T) => T): WriteOutcome;
  subscribe(listener: () => void): () => void;
}

/** A storage exception by what it means for the reader: no room left, or no storage at all. */
export function storageFailure(error: unknown): StorageFailure {
  const name = error instanceof DOMException ? error.name : '';
  // Firefox names it NS_ERROR_DOM_QUOTA_REACHED; old WebKit only sets code 22.
  const full =
    name === 'QuotaExceededError' ||
    name === 'NS_ERROR_DOM_QUOTA_REACHED' ||
    (error instanceof DOMException && error.code === 22);
  return full ? 'full' : 'unavailable';
}

/** localStorage, or null where the browser refuses it (disabled, sandboxed). */
export function browserStorage(): Storage | null {
  if (typeof window === 'undefined') return null;
  try {
    return globalThis.localStorage ?? null;
  } catch {
    return null;
  }
}

/** Writes `text` under `key`; the outcome, never an exception. */
export function writeText(key: string, text: string): WriteOutcome {
  const storage = browserStorage();
  if (storage === null) return { ok: false, reason: 'unavailable' };
  try {
    storage.setItem(key, text);
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: storageFailure(error) };
  }
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
    try {
      const raw = browserStorage()?.getItem(key);
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
      if (Object.is(next, value)) return { ok: true };
      value = next;
      const outcome = writeText(key, JSON.stringify(next));
      listeners.forEach((l) => l());
      return outcome;
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
