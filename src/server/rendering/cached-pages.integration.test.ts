import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { realPageSource } from '../../test-support/real-page-source.ts';
import {
  pagesFrom,
  playlistInfo,
  playlistItem,
  startTestUpstream,
  type TestUpstream,
} from '../../test-support/test-upstream.ts';
import { cachedPlaylistItem, largestThumbnail } from './cached-pages.ts';
import { DEFAULT_FRESH_MS } from '../pages/page-source.ts';
import type { Lookup } from '../upstream/lookup.ts';

// The cache-only reads behind link previews, over a real page source and the test upstream:
// `peek` never asks the upstream and never spends an allowance; the walk to item N follows
// continuations through the cache only, counts items, and stops on a chain that loops.

const LOOPING = 'PLloopingPlaylist0000000';
const first: Lookup = { endpoint: 'playlist', id: LOOPING, continuation: undefined };

/** Pages of 3, then 2 items, then a page whose continuation leads back to itself. */
function loopingPage(url: URL): object | undefined {
  if (url.searchParams.get('id') !== LOOPING) return undefined;
  const items = (from: number, n: number) =>
    Array.from({ length: n }, (_, i) => playlistItem(from + i));
  switch (url.searchParams.get('continuation')) {
    case null:
      return { info: playlistInfo(LOOPING), items: items(1, 3), continuation: 'b' };
    case 'b':
      return { items: items(4, 2), continuation: 'c' };
    case 'c':
      return { items: items(6, 1), continuation: 'c' };
    default:
      return undefined;
  }
}

let upstream: TestUpstream;
beforeAll(async () => {
  upstream = await startTestUpstream(pagesFrom(loopingPage));
});
afterAll(() => upstream.close());

describe('peek', () => {
  it('answers from the cache only: fresh or stale pages, never refusals, never the upstream', async () => {
    let now = 1_000_000;
    const { pageSource, close } = realPageSource(upstream.url, { now: () => now });
    upstream.reset();
    expect(pageSource.peek(first)).toBeUndefined();
    expect(upstream.hits()).toBe(0);

    const answer = await pageSource.get(first, 'client');
    expect(pageSource.peek(first)).toBe(answer.kind === 'page' ? answer.page : null);
    now += DEFAULT_FRESH_MS.playlist + 1; // stale, still servable
    expect(pageSource.peek(first)).toBeDefined();
    now += 24 * 3600_000; // past serving stale
    expect(pageSource.peek(first)).toBeUndefined();

    const unknown: Lookup = { ...first, id: 'PLdoesNotExist000000000' };
    expect(await pageSource.get(unknown, 'client')).toMatchObject({ kind: 'problem', status: 404 });
    expect(pageSource.peek(unknown)).toBeUndefined();
    expect(upstream.hits()).toBe(2);
    await close();
  });

  it('costs nothing however often it is asked: no client, no allowance, no upstream call', async () => {
    upstream.reset();
    const { pageSource, close } = realPageSource(upstream.url);
    await pageSource.get(first, 'client');
    for (let i = 0; i < 100; i++) expect(pageSource.peek(first)).toBeDefined();
    expect(upstream.hits()).toBe(1);
    await close();
  });
});

describe('the walk to item N', () => {
  it('counts items along the chain and stops where the cache or the chain ends', async () => {
    const { pageSource, close } = realPageSource(upstream.url);
    const firstPage = await pageSource.get(first, 'client');
    if (firstPage.kind !== 'page') throw new Error('no first page');
    const item = (n: number) => cachedPlaylistItem(pageSource, LOOPING, firstPage.page, n);
    expect(item(3)?.index).toBe(3);
    expect(item(4)).toBeNull(); // page 2 is not cached yet
    await pageSource.get({ ...first, continuation: 'b' }, 'client');
    await pageSource.get({ ...first, continuation: 'c' }, 'client');
    expect([4, 5, 6].map((n) => item(n)?.title)).toEqual(
      [4, 5, 6].map((n) => `Video ${n} <b>&</b>`),
    );
    // Page 3 leads back to itself: the walk stops instead of counting it again and again.
    const hits = upstream.hits();
    expect(item(7)).toBeNull();
    expect(item(1000)).toBeNull();
    expect(upstream.hits()).toBe(hits);
    await close();
  });
});

describe('the largest thumbnail', () => {
  it('is the one with the most pixels, wherever it is listed', () => {
    const t = (width: number, height: number) => ({ url: `${width}x${height}`, width, height });
    expect(largestThumbnail([t(120, 90), t(1280, 720), t(480, 360)])?.url).toBe('1280x720');
    expect(largestThumbnail([])).toBeNull();
    expect(largestThumbnail(undefined)).toBeNull();
  });
});
