import { createClientRateLimit } from '../server/quota/client-rate-limit.ts';
import { createFailureBackoff } from '../server/pages/failure-backoff.ts';
import {
  createPageSource,
  type HeldFailure,
  type PageAnswer,
  type PageCacheEntry,
  type PageSourceOptions,
} from '../server/pages/page-source.ts';
import { createQuotaGuard } from '../server/quota/quota-guard.ts';
import { createRequestCoalescer } from '../server/pages/request-coalescer.ts';
import { createResponseCache } from '../server/pages/response-cache.ts';
import { createUpstreamClient, type UpstreamClient } from '../server/upstream/client.ts';

// For tests only: the page source as start-explorer.ts builds it (cache, request merging,
// per-client allowance, quota, the upstream client over real HTTP), pointed at a test upstream
// or a catalogue on loopback. Generous limits: tests that need tight ones build their own.

export interface RealPageSource {
  pageSource: ReturnType<typeof createPageSource>;
  upstream: UpstreamClient;
  close(): Promise<void>;
}

const quiet = { error() {}, warn() {}, debug() {} };

export function realPageSource(
  baseUrl: string,
  options: Pick<PageSourceOptions, 'onPage' | 'now' | 'breaker' | 'staleAfterMs'> & {
    apiKey?: string;
    apiSecret?: string;
    cacheBytes?: number;
    /** Hold failing pages back as start-explorer.ts does (1 s, doubling to 30 s). */
    backoff?: boolean;
    retries?: number;
    deadlineMs?: number;
  } = {},
): RealPageSource {
  const { now } = options;
  const upstream = createUpstreamClient({
    baseUrl,
    apiKey: options.apiKey ?? 'test-key',
    apiSecret: options.apiSecret ?? 'test-secret',
    quota: createQuotaGuard({ budgetPerHour: 100_000, now }),
    logger: quiet,
    backoffMs: 1,
    deadlineMs: options.deadlineMs ?? 5000,
    retries: options.retries,
  });
  const pageSource = createPageSource({
    upstream,
    cache: createResponseCache<PageCacheEntry>({ maxBytes: options.cacheBytes ?? 50_000_000 }),
    coalescer: createRequestCoalescer<PageAnswer>(),
    clientRateLimit: createClientRateLimit({ burst: 10_000, perSecond: 1 }),
    onPage: options.onPage,
    backoff: options.backoff
      ? createFailureBackoff<HeldFailure>({ initialMs: 1000, maxMs: 30_000, now })
      : undefined,
    breaker: options.breaker,
    staleAfterMs: options.staleAfterMs,
    now,
  });
  return { pageSource, upstream, close: () => upstream.close() };
}
