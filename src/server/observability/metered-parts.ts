import type { RequestListener } from 'node:http';
import type { ExplorerMetrics } from './metrics.ts';
import type { ClientRateLimit, RateDecision } from '../quota/client-rate-limit.ts';
import type { AppShell } from '../rendering/app-html.ts';
import type { PageSource } from '../pages/page-source.ts';
import type { StoredPage } from '../pages/page-entry.ts';
import type { UpstreamClient } from '../upstream/client.ts';
import { withTimedCalls } from '../upstream/round-trip.ts';

// The parts whose events the metrics count, wrapped at the composition root rather than
// taught about metrics: with metrics off nothing is wrapped, so the hot path pays nothing.

export function meteredUpstream<U extends Pick<UpstreamClient, 'fetchPage'>>(
  upstream: U,
  metrics: ExplorerMetrics,
): U {
  return withTimedCalls(upstream, (lookup, result, ms) => {
    const outcome = result.ok
      ? result.upstreamStatus
      : (result.failure.upstreamStatus ?? result.failure.kind);
    metrics.upstreamLookup(lookup.endpoint, outcome, result.attempts, ms / 1000);
  });
}

/** Counts each answer by where it came from; `fresh` answers on the fast path are hits. */
export function meteredPageSource(pageSource: PageSource, metrics: ExplorerMetrics): PageSource {
  return {
    ...pageSource,
    async get(lookup, client, options) {
      const answer = await pageSource.get(lookup, client, options);
      metrics.pageAnswer(lookup.endpoint, answer.cache);
      return answer;
    },
    fresh(lookup) {
      const page = pageSource.fresh(lookup);
      if (page !== undefined) metrics.pageAnswer(lookup.endpoint, 'hit');
      return page;
    },
    freshInSecondLevel(lookup) {
      const count = (page: StoredPage | undefined) => {
        if (page !== undefined) metrics.pageAnswer(lookup.endpoint, 'hit');
        return page;
      };
      const found = pageSource.freshInSecondLevel(lookup);
      return found instanceof Promise ? found.then(count) : count(found);
    },
  };
}

export function meteredListener(
  listener: RequestListener,
  metrics: ExplorerMetrics,
): RequestListener {
  return (request, response) => {
    const done = metrics.requestStarted();
    response.once('close', done);
    listener(request, response);
  };
}

/** Times each render of the app's server entry: the histogram's count is the renders made. */
export function meteredShell(shell: AppShell, metrics: ExplorerMetrics): AppShell {
  const { render } = shell;
  if (render === null) return shell;
  return {
    ...shell,
    async render(request) {
      const started = performance.now();
      try {
        return await render(request);
      } finally {
        metrics.rendered((performance.now() - started) / 1000);
      }
    },
  };
}

/** Counts the renders refused for the allowance. */
export function meteredRenderLimit(
  limit: ClientRateLimit,
  metrics: ExplorerMetrics,
): ClientRateLimit {
  const count = (decision: RateDecision) => {
    if (!decision.ok) metrics.renderRefused();
    return decision;
  };
  return {
    take(client) {
      const decision = limit.take(client);
      return decision instanceof Promise ? decision.then(count) : count(decision);
    },
  };
}
