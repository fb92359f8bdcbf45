import { LRUCache } from 'lru-cache';
import { entryCost } from './memory-cost.ts';
import type { PageCacheEntry, StoredPage } from './page-entry.ts';

// The explorer's page cache: lru-cache, bounded by what its entries occupy rather than by a
// count, because pages range from an empty playlist to a hundred items, and memory is what runs
// out. Each entry is charged what `entryCost` (memory-cost.ts) says of it, key and record
// included: so a flood of tiny entries is bounded as surely as a few large ones, and the process
// grows by about the configured size. Freshness is decided by the caller (page-source.ts); this
// module only stores and evicts.

export interface ResponseCache {
  /** The entry, marked as most recently used; undefined when absent. */
  get(key: string): PageCacheEntry | undefined;
  /** Stores an entry, evicting the least recently used to fit; one that cannot fit is not kept. */
  set(key: string, entry: PageCacheEntry): void;
  /** `entry` grew or shrank (a compressed copy was added): charged anew, if still under `key`. */
  measure(key: string, entry: PageCacheEntry): void;
  delete(key: string): void;
  stats(): { entries: number; bytes: number; maxBytes: number; evictions: number };
}

// Memory other modules keep beside a cached page, for as long as it lives (its server renders,
// keyed weakly by the page in app-html.ts), is charged to the page's entry (`besideBytes`): it
// lives and dies with the entry, so the cache bound has to cover it, or a small cache of large
// pages could hold several times its size in renders. A dependent is attached to its page with
// its cost, and may grow (a compressed copy made later) or be dropped (its bytes handed back).

/** Charges the entry that holds a page again, while a cache does. */
const heldIn = new WeakMap<StoredPage, () => void>();
/** Each dependent's page, and the bytes charged for it so far. */
const dependents = new WeakMap<object, { page: StoredPage; bytes: number }>();

function charge(page: StoredPage, bytes: number): void {
  page.besideBytes = (page.besideBytes ?? 0) + bytes;
  heldIn.get(page)?.();
}

/** `dependent` is kept beside `page` and occupies `bytes`: charged to its entry. */
export function keepBeside(dependent: object, page: StoredPage, bytes: number): void {
  dropBeside(dependent);
  dependents.set(dependent, { page, bytes });
  charge(page, bytes);
}

/** A dependent grew by `bytes` (e.g. a compressed copy of it was made); others are ignored. */
export function growBeside(dependent: object, bytes: number): void {
  const kept = dependents.get(dependent);
  if (kept === undefined) return;
  kept.bytes += bytes;
  charge(kept.page, bytes);
}

/** A dependent is no longer kept: its bytes are handed back to its page's entry. */
export function dropBeside(dependent: object): void {
  const kept = dependents.get(dependent);
  if (kept === undefined) return;
  dependents.delete(dependent);
  charge(kept.page, -kept.bytes);
}

export function createResponseCache(options: { maxBytes: number }): ResponseCache {
  const { maxBytes } = options;
  let evictions = 0;
  const lru = new LRUCache<string, PageCacheEntry>({
    // lru-cache takes no bound of 0 (off): one byte holds nothing, as every entry costs more.
    maxSize: Math.max(1, maxBytes),
    sizeCalculation: (entry, key) => entryCost(key, entry),
    dispose: (_entry, _key, reason) => {
      if (reason === 'evict') evictions++;
    },
  });

  const measure = (key: string, entry: PageCacheEntry) => {
    if (lru.peek(key) !== entry) return;
    // lru-cache sizes a value as it is set, and not again when the same value is set over it.
    lru.delete(key);
    lru.set(key, entry);
  };

  return {
    get: (key) => lru.get(key),
    set(key, entry) {
      lru.set(key, entry);
      if (entry.kind === 'page') heldIn.set(entry, () => measure(key, entry));
    },
    measure,
    delete: (key) => void lru.delete(key),
    stats: () => ({ entries: lru.size, bytes: lru.calculatedSize, maxBytes, evictions }),
  };
}
