import type { UpstreamClient } from './client.ts';

// How long the upstream takes to answer a lookup, as this process has seen it: the median of its
// latest successful calls. A person's first view waits for its list's first page only when that
// page can be expected within the wait (routes/app-pages.ts); against the real service it cannot,
// and waiting would only hold back the first paint. Before the first calls there is a prior: the
// embedded catalogue's configured latency (none unless its fault switches add some), or for a
// remote service the real one's typical round trip.

/** The real service's typical round trip for a page, until this process has timed its own. */
export const REMOTE_ROUND_TRIP_PRIOR_MS = 150;

/** Calls the median is taken over: recent enough to follow a change, many enough to be steady. */
const SAMPLES = 16;

/** Calls timed before the median replaces the prior. */
const MIN_SAMPLES = 3;

export interface RoundTrip {
  observe(ms: number): void;
  /** The typical time for a lookup now, in milliseconds. */
  typicalMs(): number;
}

export function createRoundTrip(priorMs: number): RoundTrip {
  const samples: number[] = [];
  let next = 0;
  let median: number | null = null;
  return {
    observe(ms) {
      if (samples.length < SAMPLES) samples.push(ms);
      else samples[next] = ms;
      next = (next + 1) % SAMPLES;
      median = null;
    },
    typicalMs() {
      if (samples.length < MIN_SAMPLES) return priorMs;
      median ??= [...samples].sort((a, b) => a - b)[samples.length >> 1]!;
      return median;
    },
  };
}

type FetchPage = UpstreamClient['fetchPage'];

/** The upstream, `timed` told of each call: its lookup, its result and how long it took. */
export function withTimedCalls<U extends Pick<UpstreamClient, 'fetchPage'>>(
  upstream: U,
  timed: (
    lookup: Parameters<FetchPage>[0],
    result: Awaited<ReturnType<FetchPage>>,
    ms: number,
  ) => void,
): U {
  return {
    ...upstream,
    async fetchPage(lookup) {
      const started = performance.now();
      const result = await upstream.fetchPage(lookup);
      timed(lookup, result, performance.now() - started);
      return result;
    },
  };
}

/** The upstream, each successful call timed into `roundTrip` (failures say nothing of speed). */
export const timedUpstream = <U extends Pick<UpstreamClient, 'fetchPage'>>(
  upstream: U,
  roundTrip: RoundTrip,
): U =>
  withTimedCalls(upstream, (_lookup, result, ms) => {
    if (result.ok && result.attempts === 1) roundTrip.observe(ms);
  });
