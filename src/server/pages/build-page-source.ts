import type { ClientRateLimit } from '../quota/client-rate-limit.ts';
import type { UpstreamBreaker } from '../upstream/breaker.ts';
import { createAdmission } from './admission.ts';
import { createFailureBackoff } from './failure-backoff.ts';
import type { HeldFailure, PageAnswer } from './page-entry.ts';
import { createPageSource, type PageSource, type PageSourceOptions } from './page-source.ts';
import { createRequestCoalescer } from './request-coalescer.ts';
import { createResponseCache, type ResponseCache } from './response-cache.ts';
import { NO_SECOND_LEVEL, type SecondLevel } from './second-level.ts';

// The page source with its parts, built one way for the composition root and for every test:
// a test states only what it changes (a tight allowance, a clock, a small cache), and gets the
// same cache, merging, admission and policy that production runs.

export interface PageSourceSettings extends Pick<
  PageSourceOptions,
  | 'upstream'
  | 'freshMs'
  | 'staleMs'
  | 'refusalMs'
  | 'onPage'
  | 'staleAfterMs'
  | 'secondLevelWaitMs'
  | 'now'
> {
  /** What the page cache may occupy, in bytes (0: no cache). */
  cacheMaxBytes: number;
  /** Each client's allowance for requests that would spend quota (memory or Redis). */
  clientRateLimit: ClientRateLimit;
  /** Pages beyond this process (replicas sharing Redis); unset: this process alone. */
  secondLevel?: SecondLevel;
  /** Hold a failing page back, from `initialMs` doubling to `maxMs`; unset: never. */
  backoff?: { initialMs: number; maxMs: number };
  /** Stop calling a failing upstream as a whole; unset: never. */
  breaker?: UpstreamBreaker;
}

export interface BuiltPageSource {
  pageSource: PageSource;
  /** The page cache, for the metrics and for tests that look inside it. */
  cache: ResponseCache;
}

export function buildPageSource(settings: PageSourceSettings): BuiltPageSource {
  const {
    cacheMaxBytes,
    clientRateLimit,
    secondLevel = NO_SECOND_LEVEL,
    backoff,
    breaker,
    ...policy
  } = settings;
  const cache = createResponseCache({ maxBytes: cacheMaxBytes });
  const admission = createAdmission({
    clientRateLimit,
    breaker,
    backoff:
      backoff === undefined
        ? undefined
        : createFailureBackoff<HeldFailure>({ ...backoff, now: settings.now }),
  });
  const pageSource = createPageSource({
    ...policy,
    cache,
    coalescer: createRequestCoalescer<PageAnswer>(),
    admission,
    secondLevel,
  });
  return { pageSource, cache };
}
