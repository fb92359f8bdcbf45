import { describe, expect, it } from 'vitest';
import { chainUpstream, type ChainUpstream } from '../../test-support/chain-upstream.ts';
import { buildPageSource } from '../pages/build-page-source.ts';
import type { PageSource } from '../pages/page-source.ts';
import { createClientRateLimit } from '../quota/client-rate-limit.ts';
import { createQuotaGuard } from '../quota/quota-guard.ts';
import type { Lookup } from '../upstream/lookup.ts';
import {
  createChainWarmer,
  type ChainWarmer,
  type ChainWarmerOptions,
  type ChainWarmStats,
} from './chain-warmer.ts';
import { withWarmShare } from './warm-share.ts';

// The warmer with the page source the composition root builds (cache, merging, admission with
// warming's share as the warmer's allowance) over an in-process upstream serving chains of
// pages. What a person reads is asked of the same page source, as the routes ask it.

const LIST = 'PLwarmwarmwarmwarmwarmwarmwarmwarm';
const OTHER = 'PLotherotherotherotherotherother00';
const PAGES = 12;
const WARMER = 'chain-warmer test';

const first = (id = LIST): Lookup => ({ endpoint: 'playlist', id, continuation: undefined });
const pageN = (n: number, id = LIST): Lookup => ({
  endpoint: 'playlist',
  id,
  continuation: n === 1 ? undefined : `${id}+page/${n}=`,
});

interface Setup {
  upstream: ChainUpstream;
  pageSource: PageSource;
  warmer: ChainWarmer;
}

function setup(
  options: { share?: number; burst?: number } & Partial<ChainWarmerOptions> = {},
): Setup {
  const { share = 1000, burst = 1000, ...warmerOptions } = options;
  const upstream = chainUpstream(PAGES);
  const { pageSource } = buildPageSource({
    upstream,
    cacheMaxBytes: 10_000_000,
    clientRateLimit: withWarmShare(
      createClientRateLimit({ burst, perSecond: 0.001 }),
      WARMER,
      createQuotaGuard({ budgetPerHour: share }),
    ),
  });
  const warmer = createChainWarmer({
    pageSource,
    client: WARMER,
    lists: 4,
    idleMs: 60_000,
    pollMs: 1,
    ...warmerOptions,
  });
  return { upstream, pageSource, warmer };
}

/** Waits until the warmer's figures say `done` (every warming here ends on its own). */
const until = (warmer: ChainWarmer, done: (stats: ChainWarmStats) => boolean) =>
  expect.poll(() => done(warmer.stats()), { interval: 1, timeout: 15_000 }).toBe(true);

const stops = (warmer: ChainWarmer) =>
  Object.values(warmer.stats().stopped).reduce((sum, n) => sum + n, 0);

describe('chain warmer', () => {
  it('warms a playlist to its end after a person reads its first page', async () => {
    const { upstream, pageSource, warmer } = setup();
    expect((await pageSource.get(first(), 'person')).kind).toBe('page');
    warmer.read(LIST, 'person');
    await until(warmer, (s) => s.stopped.end === 1);
    // One call per page: the person's for page 1, the warmer's for the others.
    expect(upstream.calls).toHaveLength(PAGES);
    for (let n = 1; n <= PAGES; n++) expect(upstream.callsFor(LIST, n)).toBe(1);
    // A later drag meets every page in the cache, at no call.
    for (let n = 2; n <= PAGES; n++) {
      const answer = await pageSource.get(pageN(n), 'person');
      expect(answer.kind === 'page' && answer.cache).toBe('hit');
      warmer.read(LIST, 'person', pageN(n));
    }
    expect(upstream.calls).toHaveLength(PAGES);
    expect(warmer.stats()).toMatchObject({
      lists: 0,
      started: 1,
      pages: { fetched: PAGES - 1, cached: 1, merged: 0 },
      lookups: PAGES - 1,
      readByPeople: PAGES - 1,
    });
  });

  it('starts nothing for a list whose first page the reader did not get', async () => {
    // The person's allowance is spent: their request is refused, and warming does not fetch
    // the page in their place.
    const { upstream, pageSource, warmer } = setup({ burst: 1 });
    await pageSource.get(first(OTHER), 'person');
    const refused = await pageSource.get(first(), 'person');
    expect(refused).toMatchObject({ kind: 'problem', status: 429 });
    warmer.read(LIST, 'person');
    expect(warmer.stats()).toMatchObject({ started: 0, skipped: { unread: 1 } });
    expect(upstream.callsFor(LIST, 1)).toBe(0);
  });

  it('spends no more than its share of the hour, then stops', async () => {
    const { upstream, pageSource, warmer } = setup({ share: 3 });
    await pageSource.get(first(), 'person');
    warmer.read(LIST, 'person');
    await until(warmer, (s) => stops(warmer) === 1 && s.lists === 0);
    expect(warmer.stats()).toMatchObject({ stopped: { share: 1 }, lookups: 3 });
    expect(upstream.calls).toHaveLength(1 + 3);
    // The person's own allowance is untouched by it.
    expect((await pageSource.get(pageN(5), 'person')).kind).toBe('page');
  });

  it("merges a reader's request for a page the warmer is fetching into the warmer's call", async () => {
    const { upstream, pageSource, warmer } = setup();
    await pageSource.get(first(), 'person');
    upstream.hold(2);
    warmer.read(LIST, 'person');
    await upstream.asked(LIST, 2);
    const reader = pageSource.get(pageN(2), 'person');
    upstream.release(2);
    const answer = await reader;
    expect(answer.kind === 'page' && answer.cache).toBe('merged');
    expect(upstream.callsFor(LIST, 2)).toBe(1);
    await until(warmer, (s) => s.stopped.end === 1);
    expect(upstream.calls).toHaveLength(PAGES);
  });

  it('waits while people need the upstream, and goes on when they are done', async () => {
    let busy = true;
    const { upstream, pageSource, warmer } = setup({ upstreamBusy: () => busy });
    await pageSource.get(first(), 'person');
    warmer.read(LIST, 'person');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(upstream.calls).toHaveLength(1);
    expect(warmer.stats()).toMatchObject({ lists: 1, yields: 1 });
    busy = false;
    await until(warmer, (s) => s.stopped.end === 1);
    expect(upstream.calls).toHaveLength(PAGES);
  });

  it('stops when the hour has no quota to spare', async () => {
    let spare = true;
    const { upstream, pageSource, warmer } = setup({ quotaToSpare: () => spare });
    await pageSource.get(first(), 'person');
    upstream.hold(3);
    warmer.read(LIST, 'person');
    await upstream.asked(LIST, 3);
    spare = false;
    upstream.release(3);
    await until(warmer, (s) => s.stopped.quota === 1);
    expect(upstream.calls).toHaveLength(3);
  });

  it('stops when nobody has read the list for a while', async () => {
    let clock = 0;
    const { upstream, pageSource, warmer } = setup({ idleMs: 1000, now: () => clock });
    await pageSource.get(first(), 'person');
    upstream.hold(4);
    warmer.read(LIST, 'person');
    await upstream.asked(LIST, 4);
    clock = 1001;
    upstream.release(4);
    await until(warmer, (s) => s.stopped.idle === 1);
    expect(upstream.calls).toHaveLength(4);
  });

  it("keeps warming a list while it is read, and ends a reader's previous list", async () => {
    let clock = 0;
    const { upstream, pageSource, warmer } = setup({ idleMs: 1000, now: () => clock });
    await pageSource.get(first(), 'person');
    await pageSource.get(first(OTHER), 'person');
    upstream.hold(3);
    warmer.read(LIST, 'person');
    await upstream.asked(LIST, 3);
    // Read again just before it would go idle: it goes on.
    clock = 900;
    warmer.read(LIST, 'person', pageN(2));
    clock = 1500;
    // The same person opens another list: the first one's warming ends there.
    warmer.read(OTHER, 'person');
    upstream.release(3);
    await until(warmer, (s) => s.stopped.replaced === 1 && s.stopped.end === 1);
    expect(upstream.callsFor(LIST, 4)).toBe(0);
    expect(upstream.callsFor(OTHER, PAGES)).toBe(1);
  });

  it('warms a bounded number of lists at once, one chain each', async () => {
    const { upstream, pageSource, warmer } = setup({ lists: 1 });
    await pageSource.get(first(), 'a');
    await pageSource.get(first(OTHER), 'b');
    upstream.hold(2);
    warmer.read(LIST, 'a');
    // Another reader of the same list joins its warming rather than starting a second chain.
    warmer.read(LIST, 'b');
    warmer.read(OTHER, 'c');
    expect(warmer.stats()).toMatchObject({ lists: 1, started: 1, skipped: { busy: 1 } });
    upstream.release(2);
    await until(warmer, (s) => s.stopped.end === 1);
    expect(upstream.callsFor(LIST, 2)).toBe(1);
    expect(upstream.callsFor(OTHER, 2)).toBe(0);
    // Warmed to its end a moment ago: not again while its pages are fresh.
    warmer.read(LIST, 'a');
    expect(warmer.stats()).toMatchObject({ started: 1, skipped: { recent: 1 } });
  });
});
