import { describe, expect, it } from 'vitest';
import { rightSized } from '../http/representation.ts';
import { entryCost, stringBytes } from './memory-cost.ts';
import type { StoredPage } from './page-entry.ts';
import { createResponseCache, dropBeside, growBeside, keepBeside } from './response-cache.ts';

/** A page whose body is `bytes` long, in a block of its own. */
function page(bytes: number): StoredPage {
  const body = rightSized(Buffer.alloc(bytes, 'x'));
  return {
    kind: 'page',
    body,
    etag: '"e"',
    freshUntil: 0,
    staleUntil: 0,
    encoded: {},
    encodedBytes: 0,
  };
}

/** What a page of `bytes` costs under a 1-character key. */
const cost = (bytes: number) => entryCost('a', page(bytes));

describe('response cache: LRU bounded in bytes', () => {
  it('evicts the least recently used entries until the new one fits', () => {
    const cache = createResponseCache({ maxBytes: 3 * cost(1000) });
    const [a, b, c, d] = [page(1000), page(1000), page(1000), page(1000)];
    cache.set('a', a);
    cache.set('b', b);
    cache.set('c', c);
    expect(cache.get('a')).toBe(a); // a is now the most recent
    cache.set('d', d);
    expect(cache.get('b')).toBeUndefined();
    expect(['a', 'c', 'd'].map((k) => cache.get(k))).toEqual([a, c, d]);
    expect(cache.stats()).toMatchObject({ entries: 3, bytes: 3 * cost(1000), evictions: 1 });
  });

  it('a big entry pushes out several small ones; one bigger than the cache is not stored', () => {
    const cache = createResponseCache({ maxBytes: 10_000 });
    for (const key of ['a', 'b', 'c', 'd']) cache.set(key, page(1000));
    const big = page(7000);
    cache.set('e', big);
    expect(cache.stats()).toMatchObject({ entries: 2, evictions: 3 });
    expect(cache.stats().bytes).toBeLessThanOrEqual(10_000);
    expect(cache.get('e')).toBe(big);
    cache.set('huge', page(20_000));
    expect(cache.get('huge')).toBeUndefined();
  });

  it('charges growth (a compressed copy) anew and evicts for it; 0 bytes means off', () => {
    const cache = createResponseCache({ maxBytes: 2 * cost(1000) + 100 });
    const a = page(1000);
    cache.set('a', a);
    cache.set('b', page(1000));
    cache.get('a');
    a.encodedBytes += 200;
    cache.measure('a', a); // b is now the least recent and must go
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(a);
    expect(cache.stats().bytes).toBe(cost(1000) + 200);
    // Only the entry still stored under its key: a newer one may have replaced it.
    const newer = page(10);
    cache.set('a', newer);
    a.encodedBytes += 10_000;
    cache.measure('a', a);
    expect(cache.get('a')).toBe(newer);
    expect(cache.stats().bytes).toBe(cost(10));

    const off = createResponseCache({ maxBytes: 0 });
    off.set('a', page(1));
    expect(off.get('a')).toBeUndefined();
    expect(off.stats()).toMatchObject({ entries: 0, bytes: 0, maxBytes: 0 });
  });
});

describe('response cache: counts what an entry really costs', () => {
  it('charges each entry what entryCost says, key and record included, so tiny entries are bounded too', () => {
    const cache = createResponseCache({ maxBytes: 100_000 });
    const keys = Array.from({ length: 10_000 }, (_, i) => `playlist PLsomething${i} `);
    const tiny = page(1);
    for (const key of keys) cache.set(key, tiny);
    const kept = keys.filter((key) => cache.get(key) !== undefined);
    const { entries, bytes } = cache.stats();
    expect(entries).toBe(kept.length);
    expect(bytes).toBe(kept.reduce((sum, key) => sum + entryCost(key, tiny), 0));
    expect(bytes).toBeLessThanOrEqual(100_000);
    expect(bytes).toBeGreaterThan(100_000 - entryCost(keys.at(-1)!, tiny));
  });

  it('counts a longer key as more', () => {
    const cache = createResponseCache({ maxBytes: 1_000_000 });
    cache.set('a', page(100));
    const short = cache.stats().bytes;
    cache.set('b'.repeat(1000), page(100));
    const long = cache.stats().bytes - short;
    expect(long - short).toBe(stringBytes('b'.repeat(1000)) - stringBytes('a'));
    expect(long - short).toBeGreaterThanOrEqual(990);
  });
});

describe('response cache: memory kept beside a cached page', () => {
  it('charges a dependent to its page’s entry, grows and refunds it, and evicts for it', () => {
    const cache = createResponseCache({ maxBytes: 2 * cost(1000) + 10_000 });
    const held = page(1000);
    cache.set('a', held);
    cache.set('b', page(1000));
    const base = cache.stats().bytes;
    const render = {};
    keepBeside(render, held, 3000);
    expect(cache.stats().bytes).toBe(base + 3000);
    growBeside(render, 500);
    expect(cache.stats().bytes).toBe(base + 3500);
    // A compressed copy of the page itself adds to what its dependents cost.
    held.encodedBytes += 100;
    cache.measure('a', held);
    expect(cache.stats().bytes).toBe(base + 3600);
    dropBeside(render);
    expect(cache.stats().bytes).toBe(base + 100);
    growBeside(render, 500); // no longer kept: ignored
    expect(cache.stats().bytes).toBe(base + 100);

    // Renders that outgrow the cache push out the least recently used entries.
    cache.get('a');
    keepBeside({}, held, 9_950);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe(held);
    expect(cache.stats().bytes).toBeLessThanOrEqual(2 * cost(1000) + 10_000);
  });

  it('charges nothing to a cache that no longer holds the page', () => {
    const cache = createResponseCache({ maxBytes: 10_000 });
    const held = page(100);
    cache.set('a', held);
    cache.delete('a');
    keepBeside({}, held, 5000);
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });
});
