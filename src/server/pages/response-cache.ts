import { ENTRY_BYTES, stringBytes } from './memory-cost.ts';

// The explorer's page cache: least recently used first out, bounded by the bytes it holds
// rather than by a count, because pages range from a few hundred bytes (an empty playlist) to
// ~80 KB (100 playlist items), and memory is what runs out. The bytes are what an entry
// really occupies in memory, as the caller measures its value (memory-cost.ts) and this
// module adds the key and its own bookkeeping: so a flood of tiny entries is bounded as
// surely as a few large ones, and the process grows by about the configured size. Freshness
// is decided by the caller (page-source.ts); this module only stores and evicts.

export interface ResponseCache<V> {
  /** The value, marked as most recently used; undefined when absent. */
  get(key: string): V | undefined;
  /**
   * Stores a value that occupies `bytes` of memory (memory-cost.ts); evicts the least recently
   * used entries to fit.
   */
  set(key: string, value: V, bytes: number): void;
  /** The stored value grew or shrank (e.g. a compressed copy was added). */
  resize(key: string, value: V, bytes: number): void;
  delete(key: string): void;
  stats(): { entries: number; bytes: number; maxBytes: number; evictions: number };
}

// Memory other modules keep beside a cached value, for as long as it lives (a page's server
// renders, keyed weakly by the page in app-html.ts), is charged to the value's entry: it lives
// and dies with the entry, so the cache bound has to cover it, or a small cache of large pages
// could hold several times its size in renders. A cache registers each object value it holds;
// a dependent is attached to its holder with its cost, and may grow (a compressed copy made
// later) or be dropped (its bytes handed back). Charges to a value no cache holds any longer
// are ignored: it is on its way out, with its dependents.

/** How to charge the entry that holds a value, while one does. */
const holders = new WeakMap<object, (bytes: number) => void>();
/** Each dependent's holder and the bytes charged for it so far. */
const dependents = new WeakMap<object, { holder: object; bytes: number }>();

/** `dependent` is kept beside the cached `holder` and occupies `bytes`: charged to its entry. */
export function keepBeside(dependent: object, holder: object, bytes: number): void {
  dropBeside(dependent);
  dependents.set(dependent, { holder, bytes });
  holders.get(holder)?.(bytes);
}

/** A dependent grew by `bytes` (e.g. a compressed copy of it was made); others are ignored. */
export function growBeside(dependent: object, bytes: number): void {
  const kept = dependents.get(dependent);
  if (kept === undefined) return;
  kept.bytes += bytes;
  holders.get(kept.holder)?.(bytes);
}

/** A dependent is no longer kept: its bytes are handed back to its holder's entry. */
export function dropBeside(dependent: object): void {
  const kept = dependents.get(dependent);
  if (kept === undefined) return;
  dependents.delete(dependent);
  holders.get(kept.holder)?.(-kept.bytes);
}

export function createResponseCache<V>(options: { maxBytes: number }): ResponseCache<V> {
  const { maxBytes } = options;
  // A Map iterates in insertion order: re-inserting on use makes the first key the LRU one.
  // `extra`: what is charged for the value's dependents (keepBeside).
  const entries = new Map<string, { value: V; size: number; extra: number }>();
  let bytes = 0;
  let evictions = 0;

  /** An entry's whole cost: its value, its key and the cache's record of it. */
  const sizeOf = (key: string, valueBytes: number) => valueBytes + stringBytes(key) + ENTRY_BYTES;

  const forget = (value: V) => {
    if (typeof value === 'object' && value !== null) holders.delete(value);
  };

  const evictUntilFits = () => {
    for (const [key, entry] of entries) {
      if (bytes <= maxBytes) break;
      entries.delete(key);
      forget(entry.value);
      bytes -= entry.size;
      evictions++;
    }
  };

  const remove = (key: string) => {
    const entry = entries.get(key);
    if (entry === undefined) return;
    entries.delete(key);
    forget(entry.value);
    bytes -= entry.size;
  };

  /** Grows or shrinks an entry; one that no longer fits the whole cache goes. */
  const account = (key: string, entry: { size: number }, size: number) => {
    bytes += size - entry.size;
    entry.size = size;
    if (size > maxBytes) remove(key);
    else evictUntilFits();
  };

  return {
    get(key) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      entries.delete(key);
      entries.set(key, entry);
      return entry.value;
    },
    set(key, value, valueBytes) {
      remove(key);
      const size = sizeOf(key, valueBytes);
      // An entry bigger than the whole cache (or a cache of 0 bytes, i.e. off) stores nothing.
      if (size > maxBytes) return;
      const entry = { value, size, extra: 0 };
      entries.set(key, entry);
      bytes += size;
      if (typeof value === 'object' && value !== null) {
        holders.set(value, (charged) => {
          if (entries.get(key) !== entry) return;
          entry.extra += charged;
          account(key, entry, entry.size + charged);
        });
      }
      evictUntilFits();
    },
    resize(key, value, valueBytes) {
      const entry = entries.get(key);
      // Only the entry that is still stored under this key: a newer one may have replaced it.
      if (entry === undefined || entry.value !== value) return;
      account(key, entry, sizeOf(key, valueBytes) + entry.extra);
    },
    delete: remove,
    stats: () => ({ entries: entries.size, bytes, maxBytes, evictions }),
  };
}
