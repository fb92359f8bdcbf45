import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { realPageSource, type RealPageSource } from '../../test-support/real-page-source.ts';
import {
  json,
  lessonPlaylist,
  pagesFrom,
  startTestUpstream,
  type TestUpstream,
} from '../../test-support/test-upstream.ts';
import { createFeedSource, type FeedSource } from './feed-source.ts';
import { TAIL_MAX_AGE_MS } from './playlist-tail.ts';

// A playlist's kept tail against a test upstream over real HTTP, through the page source and
// its cache, on a clock of the test's own: what an edit the first page cannot show costs to
// see, and a tail page the cache held from before the first page changed.

const ID = 'PLtailKeptBetweenPolls000000000';
const TOTAL = 150;
const MINUTE = 60_000;

let upstream: TestUpstream;
let source: RealPageSource;
let feeds: FeedSource;
let clock: number;
/** What the upstream answers: item 1's video and the last item's title can be changed. */
const playlist = lessonPlaylist(ID, () => TOTAL);

beforeEach(async () => {
  playlist.firstVideo = 'first000001';
  playlist.lastTitle = `Lesson ${TOTAL}`;
  clock = Date.now();
  upstream = await startTestUpstream();
  upstream.setFallback(pagesFrom(playlist.answer));
  source = realPageSource(upstream.url, { now: () => clock });
  feeds = createFeedSource({ pageSource: source.pageSource, now: () => clock });
});

afterEach(async () => {
  await source.close();
  await upstream.close();
});

/** The feed's newest entry's title, and the lookups its read cost. */
async function poll(): Promise<[string | undefined, number]> {
  const answer = await feeds.read({ list: 'playlist', id: ID }, 'reader');
  if (answer.kind !== 'feed') throw new Error(`a problem: ${answer.code}`);
  return [answer.content.items[0]?.title, answer.lookups];
}

describe('a playlist’s kept tail', () => {
  it('an edit at its end alone, the count unchanged, is seen once the tail is older than its limit', async () => {
    expect(await poll()).toEqual([`Lesson ${TOTAL}`, 2]);
    playlist.lastTitle = 'Lesson 150, re-recorded';
    // The first page as it was: nothing says the end changed. The kept tail, for one lookup.
    clock += 11 * MINUTE;
    expect(await poll()).toEqual([`Lesson ${TOTAL}`, 1]);
    // Past the limit: the page holding the tail is read again (the first page is still fresh).
    clock += TAIL_MAX_AGE_MS - 10 * MINUTE;
    expect(await poll()).toEqual(['Lesson 150, re-recorded', 2]);
    expect(upstream.hits()).toBe(5);
  });

  it('a tail page the cache held from before the first page changed is read again later', async () => {
    // The first page, read by someone at 0; the feed at 9 minutes (its tail page then).
    await source.pageSource.get({ endpoint: 'playlist', id: ID, continuation: undefined }, 'app');
    clock += 9 * MINUTE;
    expect(await poll()).toEqual([`Lesson ${TOTAL}`, 1]);

    // Edited at both ends. At 11 minutes the first page is fetched again and differs; the
    // tail page, fresh in the cache until 19, still holds the old end.
    playlist.firstVideo = 'first000002';
    playlist.lastTitle = 'Lesson 150, re-recorded';
    clock += 2 * MINUTE;
    expect(await poll()).toEqual([`Lesson ${TOTAL}`, 1]);
    // At 20 the first page is still fresh, and unchanged since 11: but the tail read then was
    // older than it, so it is read again, now from the upstream.
    clock += 9 * MINUTE;
    expect(await poll()).toEqual(['Lesson 150, re-recorded', 1]);
    // And kept from then on (the first page still fresh, until 21).
    clock += MINUTE / 2;
    expect(await poll()).toEqual(['Lesson 150, re-recorded', 0]);
  });

  it('a continuation the upstream no longer takes: the chain from the start', async () => {
    expect(await poll()).toEqual([`Lesson ${TOTAL}`, 2]);
    // Item 1 replaced (the tail must be read again), and the old continuation refused.
    playlist.firstVideo = 'first000002';
    playlist.lastTitle = 'Lesson 150, re-recorded';
    const renewed = pagesFrom((url) => {
      if (url.searchParams.get('id') !== ID) return undefined;
      const continuation = url.searchParams.get('continuation');
      if (continuation === null) return { ...playlist.firstPage(), continuation: 'renewed-100' };
      return continuation === 'renewed-100' ? playlist.pageAt(100) : undefined;
    });
    const refused = json(400, {
      title: 'Bad Request',
      status: 400,
      detail: 'This continuation is not one this service issued.',
      code: 'invalid_continuation',
    });
    upstream.setFallback((req, res) =>
      new URL(req.url ?? '/', 'http://x').searchParams.get('continuation') === 'from-100'
        ? refused(req, res)
        : renewed(req, res),
    );
    clock += 11 * MINUTE;
    const [title, lookups] = await poll();
    expect(title).toBe('Lesson 150, re-recorded');
    // The first page, the old continuation (refused), the new one.
    expect(lookups).toBe(3);
  });
});
