import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  hang,
  json,
  startTestUpstream,
  type TestUpstream,
} from '../../test-support/test-upstream.ts';
import { realPageSource, type RealPageSource } from '../../test-support/real-page-source.ts';
import type { PageSource } from '../pages/page-source.ts';
import type { PageAnswer } from '../pages/page-entry.ts';
import { createUpstreamBreaker, type UpstreamBreaker } from './breaker.ts';
import type { Lookup } from './lookup.ts';

// A failing or hanging upstream over real HTTP (test-upstream.ts), in front of the page source
// as start-explorer.ts builds it: a failing page is held back instead of costing a call per
// request, a stale copy comes back after the soft deadline rather than the whole one, and the
// breaker stops calls when pages fail across the board, then probes one at a time.

const serverError = json(500, { title: 'boom' });
const page = (id: string): Lookup => ({ endpoint: 'playlist', id, continuation: undefined });

let upstream: TestUpstream;
let source: RealPageSource;
let clock: number;

beforeEach(async () => {
  upstream = await startTestUpstream();
  clock = Date.now();
});

afterEach(async () => {
  await source.close();
  await upstream.close();
});

function pages(
  options: { backoff?: boolean; breaker?: UpstreamBreaker; staleAfterMs?: number } = {},
): PageSource {
  source = realPageSource(upstream.url, {
    backoff: options.backoff ?? true,
    breaker: options.breaker,
    staleAfterMs: options.staleAfterMs,
    deadlineMs: 3000,
    now: () => clock,
  });
  return source.pageSource;
}

/** `total` requests for `lookup`, ten at a time every 100 ms: a page under load for a while. */
async function underLoad(source: PageSource, lookup: Lookup, total: number) {
  const answers: PageAnswer[] = [];
  for (let sent = 0; sent < total; sent += 10) {
    clock = Date.now(); // real time passes for the back-off
    const wave = Array.from({ length: 10 }, (_, i) => source.get(lookup, `client-${i}`));
    answers.push(...(await Promise.all(wave)));
    await new Promise((done) => setTimeout(done, 100));
  }
  return answers;
}

describe('when the upstream fails', () => {
  it('200 requests for a failing page over 2 s make a handful of upstream calls', async () => {
    upstream.setFallback(serverError);
    const answers = await underLoad(pages(), page('PLfailing0000000001'), 200);
    // A 500 is not retried (only a gateway's statuses are); the back-off lets one call out,
    // the next after 1 s (±20%), then after 2 s more: at most three in the 2 s.
    console.log(`200 requests for a page answering 500: ${upstream.hits()} upstream calls`);
    expect(upstream.hits()).toBeLessThanOrEqual(3);
    for (const answer of answers) {
      expect(answer.kind).toBe('problem');
      if (answer.kind === 'problem') {
        expect(answer.status).toBe(502);
        expect(answer.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      }
    }
  });

  it('without the back-off the same load calls the upstream on every wave', async () => {
    upstream.setFallback(serverError);
    await underLoad(pages({ backoff: false }), page('PLfailing0000000002'), 200);
    // One call per wave: merging is all that stands between the load and the upstream.
    expect(upstream.hits()).toBeGreaterThanOrEqual(20);
  });

  it('a stale page under a hanging upstream comes back after the soft deadline', async () => {
    const source = pages({ staleAfterMs: 1000 });
    const lookup = page('PLstale000000000001');
    const first = await source.get(lookup, 'a');
    expect(first.kind === 'page' && first.cache).toBe('miss');
    clock += 11 * 60_000; // past a playlist's freshness
    upstream.setFallback(hang);
    const started = performance.now();
    const answer = await source.get(lookup, 'a');
    const ms = performance.now() - started;
    expect(answer.kind === 'page' && answer.cache).toBe('stale');
    expect(ms).toBeGreaterThanOrEqual(950);
    expect(ms).toBeLessThan(2000);
    console.log(`stale copy under a hanging upstream after ${Math.round(ms)} ms`);
  });

  it('the breaker opens after pages fail across the board, probes once, and closes on success', async () => {
    const breaker = createUpstreamBreaker({ threshold: 3, openMs: 300 });
    const source = pages({ breaker });
    upstream.setFallback(serverError);
    for (const n of [1, 2, 3]) await source.get(page(`PLbreaker00000000${n}0`), 'a');
    expect(breaker.stats().state).toBe('open');

    const callsWhenOpen = upstream.hits();
    const refused = await source.get(page('PLbreaker0000000040'), 'a');
    expect(refused.kind === 'problem' && [refused.status, refused.code]).toEqual([
      503,
      'upstream_unavailable',
    ]);
    expect(refused.kind === 'problem' && refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(upstream.hits()).toBe(callsWhenOpen);

    await new Promise((done) => setTimeout(done, 350));
    upstream.reset(); // healthy again
    const [probe, during] = await Promise.all([
      source.get(page('PLbreaker0000000050'), 'a'),
      source.get(page('PLbreaker0000000060'), 'b'),
    ]);
    expect(probe.kind).toBe('page');
    // While the probe is out, no second call goes.
    expect(during.kind === 'problem' && during.status).toBe(503);
    expect(upstream.hits()).toBe(1);
    expect(breaker.stats().state).toBe('closed');
    expect((await source.get(page('PLbreaker0000000060'), 'b')).kind).toBe('page');
  });

  it('a refused key: 100 different pages at once cost one call, all refused; then one probe', async () => {
    const breaker = createUpstreamBreaker({ threshold: 5, openMs: 300 });
    const reader = pages({ breaker });
    upstream.setFallback(json(401, { title: 'Unauthorized' }));
    const lookups = Array.from({ length: 100 }, (_, n) =>
      page(`PLrefused${String(n).padStart(10, '0')}`),
    );
    const answers = await Promise.all(lookups.map((lookup) => reader.get(lookup, 'a')));
    expect(upstream.hits()).toBe(1);
    for (const answer of answers) {
      expect(answer.kind === 'problem' && [answer.status, answer.code]).toEqual([
        502,
        'upstream_credentials_rejected',
      ]);
    }
    // All but the trial were turned away before any call, told when the probe may go.
    const turnedAway = answers.filter(
      (answer) => answer.kind === 'problem' && answer.cache === 'none',
    );
    expect(turnedAway).toHaveLength(99);
    for (const answer of turnedAway)
      expect(answer.kind === 'problem' && answer.retryAfterSeconds).toBe(1);
    expect(breaker.stats()).toMatchObject({ state: 'open', reason: 'credentials' });
    expect(source.upstream.health().credentialsRejected).toBe(true);

    // Later requests, for any page, cost nothing while it is open.
    await Promise.all(lookups.map((lookup) => reader.get(lookup, 'b')));
    expect(upstream.hits()).toBe(1);

    // After openMs, one probe; the key accepted again, everything goes.
    await new Promise((done) => setTimeout(done, 350));
    clock = Date.now() + 60_000; // past each page's own back-off
    upstream.reset();
    const again = await Promise.all(lookups.slice(0, 10).map((lookup) => reader.get(lookup, 'c')));
    expect(upstream.hits()).toBe(1);
    expect(again.filter((answer) => answer.kind === 'page')).toHaveLength(1);
    expect(breaker.stats()).toMatchObject({ state: 'closed', credentials: 'accepted' });
    expect(source.upstream.health().credentialsRejected).toBe(false);
    const after = await Promise.all(lookups.slice(10, 20).map((lookup) => reader.get(lookup, 'c')));
    expect(after.every((answer) => answer.kind === 'page')).toBe(true);
  });
});
