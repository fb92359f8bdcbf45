import { describe, expect, it } from 'vitest';
import { createResponseCache } from './response-cache.ts';

const OVERHEAD = 256 + 2; // per entry bookkeeping + a 1-character key

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
