import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { EndpointName } from '../../shared/endpoints.ts';
import type { CacheStatus } from '../pages/page-entry.ts';
import type { QuotaGuard } from '../quota/quota-guard.ts';
import type { ResponseCache } from '../pages/response-cache.ts';

// What an operator's monitoring scrapes (Prometheus text format, through prom-client): the
// upstream calls and their latency, the quota, the page cache, where answers came from, and
// the process itself. Figures that already live in a part (quota, cache, breaker) are read
// from it when scraped rather than kept twice; events (calls, answers) are counted as they
// happen.

/**
 * How an upstream lookup ended: the HTTP status of its last attempt, or what kept it from
 * having one (timeout, unreachable, quota_exhausted, quota_paused: no call at all).
 */
export type UpstreamOutcome = number | string;

/** Readings taken at scrape time from the parts that own them. */
export interface MetricsSources {
  /** The memory plan's total, said at start (process/memory-plan.ts). */
  memoryPlanMb?: number;
  quota: Pick<QuotaGuard, 'stats'>;
  cache: Pick<ResponseCache, 'stats'>;
  /** The upstream circuit breaker, when there is one. */
  breaker?: () => { state: 'closed' | 'open' | 'half-open' };
  /** Upstream calls in flight and waiting for a slot, when bounded. */
  upstreamSlots?: () => { active: number; queued: number };
  /** Figures other parts own and register themselves (the shared state's, for one). */
  more?: Array<(registers: Registry[]) => void>;
  /** Whole-list walks (whole-list/list-walk.ts). */
  walks?: () => { lists: number; walks: number; started: number; joined: number };
}

export interface ExplorerMetrics {
  /**
   * One upstream lookup ended after `attempts` calls (retries spend quota too; a lookup the
   * quota refused made none) and `seconds`.
   */
  upstreamLookup(
    endpoint: EndpointName,
    outcome: UpstreamOutcome,
    attempts: number,
    seconds: number,
  ): void;
  /** A page answer was given to a client, from the cache or not. */
  pageAnswer(endpoint: EndpointName, cache: CacheStatus | 'none'): void;
  /** The app's server entry rendered a page in `seconds` (a render the cache did not have). */
  rendered(seconds: number): void;
  /** A render was refused: the client was past its allowance of them. */
  renderRefused(): void;
  /** A request arrived; call the returned function once it is answered. */
  requestStarted(): () => void;
  contentType: string;
  text(): Promise<string>;
}

const BREAKER_STATES = ['closed', 'half-open', 'open'] as const;

export function createMetrics(sources: MetricsSources): ExplorerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'explorer_' });
  const registers = [registry];

  const upstreamLookups = new Counter({
    name: 'explorer_upstream_lookups_total',
    help: 'Pages asked of the lookup service, by endpoint and how they ended: the HTTP status, or timeout, unreachable, quota_exhausted, quota_paused.',
    labelNames: ['endpoint', 'status'] as const,
    registers,
  });
  const upstreamCalls = new Counter({
    name: 'explorer_upstream_calls_total',
    help: 'HTTP calls made to the lookup service (each spends quota; retries included).',
    labelNames: ['endpoint'] as const,
    registers,
  });
  const upstreamSeconds = new Histogram({
    name: 'explorer_upstream_duration_seconds',
    help: 'Time from asking the upstream for a page to its answer, retries included.',
    labelNames: ['endpoint'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  const answers = new Counter({
    name: 'explorer_page_answers_total',
    help: 'Page answers to clients by where they came from: hit, miss, stale, merged, none (a problem without a cached copy).',
    labelNames: ['endpoint', 'cache'] as const,
    registers,
  });
  const renderSeconds = new Histogram({
    name: 'explorer_render_duration_seconds',
    help: 'Server renders of the app’s pages (its count: renders made; kept renders served again are not renders).',
    buckets: [0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1],
    registers,
  });
  const renderRefusals = new Counter({
    name: 'explorer_render_refusals_total',
    help: 'App pages answered 429 rather than rendered: the client was past its allowance of renders.',
    registers,
  });
  if (sources.memoryPlanMb !== undefined)
    new Gauge({
      name: 'explorer_memory_plan_bytes',
      help: 'Resident memory the plan at start said this process needs at most (its caches full, and working room): compare explorer_process_resident_memory_bytes.',
      registers,
    }).set(sources.memoryPlanMb * 2 ** 20);
  let inFlight = 0;
  new Gauge({
    name: 'explorer_http_requests_in_flight',
    help: 'Requests received and not yet answered.',
    registers,
    collect() {
      this.set(inFlight);
    },
  });

  new Gauge({
    name: 'explorer_quota_budget',
    help: 'Upstream calls allowed per sliding window (explorer_quota_window_seconds long).',
    registers,
    collect() {
      this.set(sources.quota.stats().budget);
    },
  });
  new Gauge({
    name: 'explorer_quota_used',
    help: 'Upstream calls spent in the sliding window.',
    registers,
    collect() {
      this.set(sources.quota.stats().usedInWindow);
    },
  });
  new Gauge({
    name: 'explorer_quota_window_seconds',
    help: 'The sliding window the quota is counted over, in seconds (CATALOGUE_QUOTA_WINDOW).',
    registers,
    collect() {
      this.set(sources.quota.stats().windowSeconds);
    },
  });
  new Gauge({
    name: 'explorer_quota_remaining',
    help: 'Upstream calls left in the sliding window.',
    registers,
    collect() {
      const { budget, usedInWindow } = sources.quota.stats();
      this.set(Math.max(0, budget - usedInWindow));
    },
  });
  new Gauge({
    name: 'explorer_quota_paused_seconds',
    help: 'Seconds left of a pause the upstream asked for (429 Retry-After).',
    registers,
    collect() {
      this.set(sources.quota.stats().pausedForSeconds);
    },
  });

  const cacheGauge = (name: string, help: string, read: (s: CacheStats) => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(read(sources.cache.stats()));
      },
    });
  cacheGauge('explorer_cache_bytes', 'Bytes the page cache counts as held.', (s) => s.bytes);
  cacheGauge(
    'explorer_cache_max_bytes',
    'The page cache bound (CACHE_MAX_BYTES).',
    (s) => s.maxBytes,
  );
  cacheGauge('explorer_cache_entries', 'Entries in the page cache.', (s) => s.entries);
  let evictionsSeen = 0;
  new Counter({
    name: 'explorer_cache_evictions_total',
    help: 'Entries evicted from the page cache to make room.',
    registers,
    collect() {
      // The cache counts; the counter catches up with it when scraped.
      const { evictions } = sources.cache.stats();
      if (evictions > evictionsSeen) this.inc(evictions - evictionsSeen);
      evictionsSeen = evictions;
    },
  });

  const { breaker, upstreamSlots } = sources;
  if (breaker) {
    new Gauge({
      name: 'explorer_upstream_breaker_state',
      help: 'The upstream circuit breaker: 1 for its current state, 0 for the others.',
      labelNames: ['state'] as const,
      registers,
      collect() {
        const current = breaker().state;
        for (const state of BREAKER_STATES) this.set({ state }, state === current ? 1 : 0);
      },
    });
  }
  if (upstreamSlots) {
    new Gauge({
      name: 'explorer_upstream_in_flight',
      help: 'Upstream calls in flight (active) and waiting for a slot (queued).',
      labelNames: ['slot'] as const,
      registers,
      collect() {
        const { active, queued } = upstreamSlots();
        this.set({ slot: 'active' }, active);
        this.set({ slot: 'queued' }, queued);
      },
    });
  }

  for (const register of sources.more ?? []) register(registers);

  const { walks } = sources;
  if (walks) {
    new Gauge({
      name: 'explorer_walks_running',
      help: 'Whole-list walks running now (walks), and the lists they read (lists).',
      labelNames: ['of'] as const,
      registers,
      collect() {
        const stats = walks();
        this.set({ of: 'walks' }, stats.walks);
        this.set({ of: 'lists' }, stats.lists);
      },
    });
    const seen = { started: 0, joined: 0 };
    new Counter({
      name: 'explorer_walks_total',
      help: 'Whole-list walks begun: started (a list no one was reading) or joined (one being read).',
      labelNames: ['how'] as const,
      registers,
      collect() {
        const stats = walks();
        for (const how of ['started', 'joined'] as const) {
          if (stats[how] > seen[how]) this.inc({ how }, stats[how] - seen[how]);
          seen[how] = stats[how];
        }
      },
    });
  }

  return {
    upstreamLookup(endpoint, outcome, attempts, seconds) {
      upstreamLookups.inc({ endpoint, status: String(outcome) });
      if (attempts === 0) return;
      upstreamCalls.inc({ endpoint }, attempts);
      upstreamSeconds.observe({ endpoint }, seconds);
    },
    pageAnswer(endpoint, cache) {
      answers.inc({ endpoint, cache });
    },
    rendered(seconds) {
      renderSeconds.observe(seconds);
    },
    renderRefused() {
      renderRefusals.inc();
    },
    requestStarted() {
      inFlight++;
      let done = false;
      return () => {
        if (done) return;
        done = true;
        inFlight--;
      };
    },
    contentType: registry.contentType,
    text: () => registry.metrics(),
  };
}

type CacheStats = ReturnType<ResponseCache['stats']>;
