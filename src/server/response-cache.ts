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

export function createResponseCache<V>(options: { maxBytes: number }): ResponseCache<V> {
  const { maxBytes } = options;
  // A Map iterates in insertion order: re-inserting on use makes the first key the LRU one.
  const entries = new Map<string, { value: V; size: number }>();
  let bytes = 0;
  let evictions = 0;

  /** An entry's whole cost: its value, its key and the cache's record of it. */
  const sizeOf = (key: string, valueBytes: number) => valueBytes + stringBytes(key) + ENTRY_BYTES;

  const evictUntilFits = () => {
    for (const [key, entry] of entries) {
      if (bytes <= maxBytes) break;
      entries.delete(key);
      bytes -= entry.size;
      evictions++;
    }
  };

  const remove = (key: string) => {
    const entry = entries.get(key);
    if (entry === undefined) return;
    entries.delete(key);
    bytes -= entry.size;
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
      entries.set(key, { value, size });
      bytes += size;
      evictUntilFits();
    },
    resize(key, value, valueBytes) {
      const entry = entries.get(key);
      // Only the entry that is still stored under this key: a newer one may have replaced it.
      if (entry === undefined || entry.value !== value) return;
      const size = sizeOf(key, valueBytes);
      bytes += size - entry.size;
      entry.size = size;
      if (size > maxBytes) remove(key);
      else evictUntilFits();
    },
    delete: remove,
    stats: () => ({ entries: entries.size, bytes, maxBytes, evictions }),
  };
}
