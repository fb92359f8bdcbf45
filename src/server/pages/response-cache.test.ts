import { describe, expect, it } from 'vitest';
import { ENTRY_BYTES, stringBytes } from './memory-cost.ts';
import { createResponseCache, dropBeside, growBeside, keepBeside } from './response-cache.ts';

/** The cache's own cost of an entry with a 1-character key. */
const OVERHEAD = ENTRY_BYTES + stringBytes('a');

describe('response cache: LRU bounded in bytes', () => {
  it('evicts the least recently used entries until the new one fits', () => {
    const cache = createResponseCache<string>({ maxBytes: 3 * (1000 + OVERHEAD) });
    cache.set('a', 'A', 1000);
    cache.set('b', 'B', 1000);
    cache.set('c', 'C', 1000);
    expect(cache.get('a')).toBe('A'); // a is now the most recent
    cache.set('d', 'D', 1000);
    expect(cache.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((k) => cache.get(k))).toEqual(['A', 'C', 'D']);
    expect(cache.stats()).toMatchObject({ entries: 3, bytes: 3 * (1000 + OVERHEAD), evictions: 1 });
  });

  it('a big entry pushes out several small ones; one bigger than the cache is not stored', () => {
    const cache = createResponseCache<string>({ maxBytes: 10_000 });
    for (const key of ['a', 'b', 'c', 'd']) cache.set(key, key, 1000);
    cache.set('e', 'big', 8000);
    expect(cache.stats().bytes).toBeLessThanOrEqual(10_000);
    expect(cache.get('e')).toBe('big');
    cache.set('huge', 'x', 20_000);
    expect(cache.get('huge')).toBeUndefined();
  });

  it('counts growth (a compressed copy) and evicts for it; 0 bytes means off', () => {
    const cache = createResponseCache<{ v: number }>({ maxBytes: 2 * (1000 + OVERHEAD) + 100 });
    const a = { v: 1 };
    cache.set('a', a, 1000);
    cache.set('b', { v: 2 }, 1000);
    cache.get('a');
    cache.resize('a', a, 1200); // b is now the least recent and must go
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(a);

    const off = createResponseCache<string>({ maxBytes: 0 });
    off.set('a', 'A', 1);
    expect(off.get('a')).toBeUndefined();
  });
});

describe('response cache: counts what an entry really costs', () => {
  it('adds the key and its own record to the value, so many tiny entries are bounded too', () => {
    const cache = createResponseCache<string>({ maxBytes: 100_000 });
    for (let i = 0; i < 10_000; i++) cache.set(`playlist PLsomething${i} `, 'x', 1);
    const { entries, bytes } = cache.stats();
    expect(bytes).toBeLessThanOrEqual(100_000);
    // Each costs its 1 byte, a key of about 24 characters and the cache's record of it.
    expect(entries).toBeLessThan(100_000 / (1 + ENTRY_BYTES + 24));
    expect(entries).toBeGreaterThan(100_000 / (1 + ENTRY_BYTES + 48) - 1);
  });

  it('counts a longer key as more', () => {
    const cache = createResponseCache<string>({ maxBytes: 1_000_000 });
    cache.set('a', 'x', 100);
    const short = cache.stats().bytes;
    cache.set('b'.repeat(1000), 'x', 100);
    const long = cache.stats().bytes - short;
    expect(long - short).toBe(stringBytes('b'.repeat(1000)) - stringBytes('a'));
    expect(long - short).toBeGreaterThanOrEqual(990);
  });
});

describe('response cache: memory kept beside a cached value', () => {
  it('charges a dependent to its holder’s entry, grows and refunds it, and evicts for it', () => {
    const cache = createResponseCache<object>({ maxBytes: 10_000 });
    const page = { n: 1 };
    const other = { n: 2 };
    cache.set('a', page, 1000);
    cache.set('b', other, 1000);
    const base = cache.stats().bytes;
    const render = {};
    keepBeside(render, page, 3000);
    expect(cache.stats().bytes).toBe(base + 3000);
    growBeside(render, 500);
    expect(cache.stats().bytes).toBe(base + 3500);
    // A later resize of the page keeps what its dependents cost.
    cache.resize('a', page, 1100);
    expect(cache.stats().bytes).toBe(base + 3600);
    dropBeside(render);
    expect(cache.stats().bytes).toBe(base + 100);
    growBeside(render, 500); // no longer kept: ignored
    expect(cache.stats().bytes).toBe(base + 100);

    // Renders that outgrow the cache push out the least recently used entries.
    cache.get('a');
    keepBeside({}, page, 8000);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(page);
    expect(cache.stats().bytes).toBeLessThanOrEqual(10_000);
  });

  it('ignores charges to a value no cache holds any longer', () => {
    const cache = createResponseCache<object>({ maxBytes: 10_000 });
    const page = {};
    cache.set('a', page, 1000);
    cache.delete('a');
    keepBeside({}, page, 5000);
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });
});
