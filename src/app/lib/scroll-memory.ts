import { entryKeyOfHistoryState } from './history-entry.ts';

// Window scroll positions per history entry, so that back and forward return to the same
// position at once. Keyed by the entry's identity (history-entry.ts), read from `history.state`
// where the router keeps it; kept in sessionStorage too, so a reload of the tab can come back
// to where it was.

const STORAGE_KEY = 'catalogue-explorer:scroll';
const MAX_ENTRIES = 100;
let positions: Map<string, number> | null = null;

function load(): Map<string, number> {
  if (positions) return positions;
  positions = new Map();
  try {
    const raw = sessionStorage.getItem(STORAGE_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    if (parsed && typeof parsed === 'object') {
      for (const [key, value] of Object.entries(parsed)) {
        if (typeof value === 'number' && Number.isFinite(value)) positions.set(key, value);
      }
    }
  } catch {
    // sessionStorage unavailable: memory only.
  }
  return positions;
}

/** The identity of the current history entry. */
function currentHistoryKey(): string {
  return entryKeyOfHistoryState(window.history.state);
}

function rememberScroll(key: string, y: number): void {
  const map = load();
  map.delete(key);
  map.set(key, Math.max(0, Math.round(y)));
  if (map.size > MAX_ENTRIES) map.delete(map.keys().next().value!);
}

export function recalledScroll(key: string): number | undefined {
  return load().get(key);
}

function persistScrollMemory(): void {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify(Object.fromEntries(load())));
  } catch {
    // Full or unavailable: positions survive in memory for this page.
  }
}

/**
 * Saves the window position under the current entry while the user scrolls. Synchronously in
 * the event: a save deferred to the next frame could land under the entry that a click on a
 * link has just pushed.
 */
export function trackWindowScroll(): () => void {
  const onScroll = () => rememberScroll(currentHistoryKey(), window.scrollY);
  const onHide = () => {
    onScroll();
    persistScrollMemory();
  };
  window.history.scrollRestoration = 'manual';
  window.addEventListener('scroll', onScroll, { passive: true });
  window.addEventListener('pagehide', onHide);
  return () => {
    window.removeEventListener('scroll', onScroll);
    window.removeEventListener('pagehide', onHide);
  };
}
