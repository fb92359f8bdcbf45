import type { EndpointName } from '../../shared/endpoints.ts';
import type { ProblemCode } from '../../shared/problem.ts';
import type { ClientRateLimit, RateDecision } from '../quota/client-rate-limit.ts';
import type { Encoding } from '../http/compression.ts';
import { encodeOnce, etagOf, type Representation } from '../http/representation.ts';
import { rightSized, storedPageCost } from './memory-cost.ts';
import type { RequestCoalescer } from './request-coalescer.ts';
import type { ResponseCache } from './response-cache.ts';
import type { FailureBackoff } from './failure-backoff.ts';
import type { SharedPages } from '../shared-state/shared-pages.ts';
import type { BreakerOutcome, BreakerPass, UpstreamBreaker } from '../upstream/breaker.ts';
import type { AnyPage, UpstreamClient, UpstreamResult } from '../upstream/client.ts';
import { problemFor, type FailureProblem } from '../upstream/failure.ts';
import type { Lookup } from '../http/validate-lookup.ts';

// Where every page comes from, for the API and for the first page shipped inside the HTML
// alike: the cache first; then a request already in flight for the same page; and only then,
// if this client may spend quota, one upstream call. When that call fails, a stale copy is
// better than an error: the user keeps reading what they had, and the next request tries the
// upstream again.

export type CacheStatus = 'hit' | 'miss' | 'stale' | 'merged';

/** A page as stored and sent: the upstream's own bytes, checked against the schema. */
export interface StoredPage extends Representation {
  kind: 'page';
  freshUntil: number;
  staleUntil: number;
  /** Bytes of the compressed copies made so far (the cache counts them too). */
  encodedBytes: number;
}

/** A definite "no" from the upstream (400/404), kept briefly so repeats cost no quota. */
interface StoredRefusal {
  kind: 'refusal';
  status: 400 | 404;
  code: ProblemCode;
  detail: string;
  upstreamStatus: number;
  freshUntil: number;
}

/** What the page cache holds: pages, and the upstream's recent refusals. */
export type PageCacheEntry = StoredPage | StoredRefusal;

export type PageAnswer =
  | {
      kind: 'page';
      page: StoredPage;
      cache: CacheStatus;
      upstreamStatus?: number;
      attempts?: number;
      /** The page as the upstream client's check parsed it, when it was fetched just now. */
      data?: AnyPage;
    }
  | ({
      kind: 'problem';
      cache: CacheStatus | 'none';
      upstreamStatus?: number;
      attempts?: number;
    } & FailureProblem);

export interface PageSourceOptions {
  upstream: Pick<UpstreamClient, 'fetchPage'>;
  cache: ResponseCache<PageCacheEntry>;
  coalescer: RequestCoalescer<PageAnswer>;
  clientRateLimit: ClientRateLimit;
  /** How long a page is served without asking the upstream again, per endpoint. */
  freshMs?: Partial<Record<EndpointName, number>>;
  /** How long past freshness a page may still stand in for a failed upstream. */
  staleMs?: number;
  /** How long a 400/404 from the upstream is repeated without asking again. */
  refusalMs?: number;
  /**
   * Told about every page that arrives from the upstream, with the data the upstream client's
   * schema check parsed (so nothing parses it twice): e.g. the channel-title index. Pages
   * served from the cache were told about when they arrived. A hook that throws is ignored.
   */
  onPage?: (lookup: Lookup, page: AnyPage) => void;
  /**
   * Holds back a page whose upstream call failed for a growing interval (failure-backoff.ts);
   * requests meanwhile get its stale copy or the same problem, at no quota.
   */
  backoff?: FailureBackoff<HeldFailure>;
  /** Stops calling the upstream as a whole after failures across pages (upstream/breaker.ts). */
  breaker?: UpstreamBreaker;
  /**
   * With a stale copy at hand, how long a request waits for the upstream before getting the
   * copy; the call goes on and refreshes the cache if it succeeds. Unset: the whole deadline.
   */
  staleAfterMs?: number;
  /**
   * What replicas share through Redis (shared-state/shared-pages.ts): the cache's second
   * level, claims on pages being fetched, pages held back. Unset: this process alone.
   */
  shared?: SharedPages;
  /** How long a request waits for another replica's fetch of the same page before its own. */
  sharedWaitMs?: number;
  now?: () => number;
}

/** What a held-back page answers with: its last failure's problem. */
export type HeldFailure = FailureProblem & { upstreamStatus?: number };

/** How an upstream result speaks of the upstream's health (upstream/breaker.ts). */
function breakerOutcome(result: UpstreamResult): BreakerOutcome {
  if (result.ok) return 'success';
  // Never sent (no quota, no free slot): nothing learnt about the upstream.
  if (result.attempts === 0) return 'neutral';
  switch (result.failure.kind) {
    case 'server_error':
    case 'bad_response':
    case 'timeout':
    case 'unreachable':
      return 'failure';
    case 'bad_request':
    case 'not_found':
    case 'credentials_rejected':
      // A definite answer: the upstream is up.
      return 'success';
    default:
      // A 429, or a call the quota guard never let out: nothing about its health.
      return 'neutral';
  }
}

/**
 * Failures another call a moment later would likely meet again, so the page is held back: the
 * upstream's own failures, and refused credentials (the upstream is up, but every call would
 * spend quota on the same refusal until an operator fixes the configuration).
 */
const isTransient = (result: UpstreamResult, outcome: BreakerOutcome) =>
  outcome === 'failure' || (!result.ok && result.failure.kind === 'credentials_rejected');

export interface PageSource {
  get(lookup: Lookup, client: string): Promise<PageAnswer>;
  /** The page's body in `encoding`, compressed once and kept with the cached page. */
  encode(lookup: Lookup, page: StoredPage, encoding: Encoding): Promise<Buffer>;
  /**
   * The page the cache holds for `lookup`, fresh or still servable stale, or undefined: a read
   * that never asks the upstream, never waits and spends nobody's allowance (link previews).
   */
  peek(lookup: Lookup): StoredPage | undefined;
  /**
   * The page for `lookup` when the cache holds it fresh, as `get` would answer it (a hit), or
   * undefined: for the fast path, which answers only what needs no decision
   * (cached-page-fast-path.ts).
   */
  fresh(lookup: Lookup): StoredPage | undefined;
  /**
   * With replicas sharing a second level: the page fresh there, kept in this replica's cache
   * from then on (a hit, as `get` would answer it), or undefined for anything else. Only for
   * a request `fresh` could not answer: it asks Redis.
   */
  freshShared?(lookup: Lookup): Promise<StoredPage | undefined>;
}

/**
 * Freshness per endpoint: a channel's newest uploads come first in channel-videos, so its
 * pages go stale sooner; playlists and a channel's playlists change rarely.
 */
export const DEFAULT_FRESH_MS: Record<EndpointName, number> = {
  playlist: 10 * 60_000,
  'channel-videos': 5 * 60_000,
  'channel-playlists': 10 * 60_000,
};

const cacheKey = (lookup: Lookup) => `${lookup.endpoint} ${lookup.id} ${lookup.continuation ?? ''}`;

export function createPageSource(options: PageSourceOptions): PageSource {
  const {
    upstream,
    cache,
    coalescer,
    clientRateLimit,
    staleMs = 24 * 3600_000,
    refusalMs = 60_000,
    onPage,
    backoff,
    breaker,
    staleAfterMs,
    shared,
    sharedWaitMs = 10_000,
    now = Date.now,
  } = options;

  /**
   * A request the explorer will not send upstream now (held back, over its allowance, breaker
   * open): the stale copy when there is one, else the problem, with no quota spent either way.
   */
  const withheld = (
    previous: StoredPage | undefined,
    problem: FailureProblem & { upstreamStatus?: number },
  ): PageAnswer =>
    previous !== undefined
      ? { kind: 'page', page: previous, cache: 'stale' }
      : { kind: 'problem', ...problem, cache: 'none' };

  /**
   * The flight's answer, or the stale copy if the flight takes longer than `staleAfterMs`: the
   * reader keeps reading while the upstream makes up its mind.
   */
  async function answerOrStale(
    flight: Promise<PageAnswer>,
    previous: StoredPage | undefined,
    merged: boolean,
  ): Promise<PageAnswer> {
    const mark = (answer: PageAnswer): PageAnswer =>
      merged && !(answer.kind === 'page' && answer.cache === 'stale')
        ? { ...answer, cache: 'merged' }
        : answer;
    if (previous === undefined || staleAfterMs === undefined) return mark(await flight);
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<PageAnswer>((resolve) => {
      timer = setTimeout(
        () => resolve({ kind: 'page', page: previous, cache: 'stale' }),
        staleAfterMs,
      );
    });
    try {
      return await Promise.race([flight.then(mark), late]);
    } finally {
      clearTimeout(timer);
    }
  }
  const freshMs = { ...DEFAULT_FRESH_MS, ...options.freshMs };

  /** The one upstream call for a key; its answer is shared by everyone merged into it. */
  async function fetchAndStore(
    lookup: Lookup,
    key: string,
    previous: StoredPage | undefined,
    pass: Extract<BreakerPass, { ok: true }> | undefined,
  ): Promise<PageAnswer> {
    if (shared !== undefined && !(await shared.claim(key))) {
      // Another replica claimed the page since we looked: its result rather than a second call.
      const other = await fromOtherReplica(key, previous);
      if (other !== undefined) {
        if (pass !== undefined) breaker?.record(pass, 'neutral', key);
        return other;
      }
    }
    const result = await upstream.fetchPage(lookup);
    const at = now();
    const outcome = breakerOutcome(result);
    if (pass !== undefined) breaker?.record(pass, outcome, key);
    if (!isTransient(result, outcome)) backoff?.succeeded(key);
    const { attempts } = result;
    if (result.ok) {
      const page: StoredPage = {
        kind: 'page',
        // Only the page's own bytes: the body may be a view on the whole socket read.
        body: rightSized(result.body),
        etag: etagOf(result.body),
        freshUntil: at + freshMs[lookup.endpoint],
        staleUntil: at + freshMs[lookup.endpoint] + staleMs,
        encoded: {},
        encodedBytes: 0,
      };
      cache.set(key, page, storedPageCost(page));
      shared?.store(key, page, page.staleUntil - at);
      try {
        onPage?.(lookup, result.page);
      } catch {
        // An index fed on the side must never cost the reader the page.
      }
      return {
        kind: 'page',
        page,
        cache: 'miss',
        upstreamStatus: 200,
        attempts,
        data: result.page,
      };
    }
    const upstreamStatus = result.failure.upstreamStatus;
    const problem = problemFor(lookup, result.failure);
    let held: { detail: HeldFailure; untilMs: number } | undefined;
    if (isTransient(result, outcome)) {
      const hold = backoff?.failed(key, { ...problem, upstreamStatus });
      // Ask again no sooner than the back-off allows: say so to the client too.
      if (hold !== undefined) {
        problem.retryAfterSeconds = Math.max(
          problem.retryAfterSeconds ?? 0,
          hold.retryAfterSeconds,
        );
        held = { detail: hold.detail, untilMs: hold.untilMs };
      }
    }
    if (problem.status === 400 || problem.status === 404) {
      // The upstream's definite answer about this input: remember it, and drop any old page.
      const refusal: StoredRefusal = {
        kind: 'refusal',
        status: problem.status,
        code: problem.code,
        detail: problem.detail,
        upstreamStatus: upstreamStatus ?? problem.status,
        freshUntil: at + refusalMs,
      };
      cache.set(key, refusal, refusal.detail.length * 2 + 64);
      shared?.store(key, refusal, refusalMs);
    } else {
      // Other replicas' waiters go on: held back with us, or free to try for themselves.
      shared?.release(key, held);
      if (previous !== undefined && previous.staleUntil > at)
        return { kind: 'page', page: previous, cache: 'stale', upstreamStatus, attempts };
    }
    return { kind: 'problem', ...problem, cache: 'miss', upstreamStatus, attempts };
  }

  /** A refusal as an answer. */
  const refusalAnswer = (stored: StoredRefusal, cacheStatus: CacheStatus): PageAnswer => {
    const { status, code, detail, upstreamStatus } = stored;
    return { kind: 'problem', status, code, detail, cache: cacheStatus, upstreamStatus };
  };

  /** Keeps an entry found in the second level in this replica's cache too. */
  const adopt = (key: string, entry: PageCacheEntry) => {
    if (entry.kind === 'page') cache.set(key, entry, storedPageCost(entry));
    else cache.set(key, entry, entry.detail.length * 2 + 64);
  };

  /**
   * Waits for the fetch another replica claimed; its answer (merged), or undefined when the
   * claim ended without a result to share or the wait ran out: then this replica may fetch.
   */
  async function fromOtherReplica(
    key: string,
    previous: StoredPage | undefined,
  ): Promise<PageAnswer | undefined> {
    if (shared === undefined) return undefined;
    const seen = await shared.waitFor(key, sharedWaitMs);
    const at = now();
    const { entry, hold } = seen;
    if (entry !== undefined && entry.freshUntil > at) {
      adopt(key, entry);
      shared.countMerged();
      return entry.kind === 'page'
        ? { kind: 'page', page: entry, cache: 'merged' }
        : refusalAnswer(entry, 'merged');
    }
    if (hold !== undefined) {
      const { upstreamStatus, ...problem } = hold.detail;
      return withheld(previous, {
        ...problem,
        retryAfterSeconds: Math.max(1, Math.ceil((hold.untilMs - at) / 1000)),
        upstreamStatus,
      });
    }
    return undefined;
  }

  /** Locally merged reads of the second level: one round trip per key at a time. */
  const reads = new Map<string, ReturnType<SharedPages['read']>>();
  const readShared = (sharedPages: SharedPages, key: string) => {
    let reading = reads.get(key);
    if (reading === undefined) {
      reading = sharedPages.read(key).finally(() => reads.delete(key));
      reads.set(key, reading);
    }
    return reading;
  };

  type Admission =
    | { ok: true; pass: Extract<BreakerPass, { ok: true }> | undefined }
    | { ok: false; answer: PageAnswer };

  /**
   * Whether this request may call the upstream: not for a page held back, a client over its
   * allowance or an open breaker, which get the stale copy or the problem instead. Decided
   * without yielding when the allowance is kept in memory, so that two requests for one page
   * arriving together still merge (and the second costs its client nothing).
   */
  function admit(
    key: string,
    client: string,
    previous: StoredPage | undefined,
  ): Admission | Promise<Admission> {
    // A page that just failed is held back: its stale copy, or its problem, at no quota.
    const hold = backoff?.holding(key);
    if (hold !== undefined) {
      const { upstreamStatus, ...problem } = hold.detail;
      return {
        ok: false,
        answer: withheld(previous, {
          ...problem,
          retryAfterSeconds: hold.retryAfterSeconds,
          upstreamStatus,
        }),
      };
    }
    // From here on the request would spend quota, so the client's allowance applies.
    const allowed = clientRateLimit.take(client);
    return allowed instanceof Promise
      ? allowed.then((decision) => afterAllowance(decision, previous))
      : afterAllowance(allowed, previous);
  }

  function afterAllowance(allowed: RateDecision, previous: StoredPage | undefined): Admission {
    if (!allowed.ok) {
      return {
        ok: false,
        answer: withheld(previous, {
          status: 429,
          code: 'rate_limited',
          detail: 'Too many new pages requested from this address; slow down a little.',
          retryAfterSeconds: allowed.retryAfterSeconds,
        }),
      };
    }
    // The upstream as a whole has been failing: only its probe goes out.
    const pass = breaker?.pass();
    if (pass !== undefined && !pass.ok) {
      return {
        ok: false,
        answer: withheld(previous, {
          status: 503,
          code: 'upstream_unavailable',
          detail: 'The catalogue has been failing; the explorer is giving it a moment.',
          retryAfterSeconds: pass.retryAfterSeconds,
        }),
      };
    }
    return { ok: true, pass };
  }

  /** Past the caches and the flights: the one upstream call for the page, if admitted. */
  function fetchIfAllowed(
    lookup: Lookup,
    key: string,
    client: string,
    previous: StoredPage | undefined,
  ): Promise<PageAnswer> {
    const go = (admission: Admission): Promise<PageAnswer> => {
      if (!admission.ok) return Promise.resolve(admission.answer);
      // Another request for the page may have started while the allowance was asked.
      const flight = coalescer.inFlight(key);
      if (flight !== undefined) {
        if (admission.pass !== undefined) breaker?.record(admission.pass, 'neutral', key);
        return answerOrStale(flight, previous, true);
      }
      const started = coalescer.start(key, () =>
        fetchAndStore(lookup, key, previous, admission.pass),
      );
      return answerOrStale(started, previous, false);
    };
    const admission = admit(key, client, previous);
    return admission instanceof Promise ? admission.then(go) : go(admission);
  }

  /** The second level and other replicas' flights, then `fetchIfAllowed`. */
  async function viaShared(
    sharedPages: SharedPages,
    lookup: Lookup,
    key: string,
    client: string,
    local: StoredPage | undefined,
  ): Promise<PageAnswer> {
    const seen = await readShared(sharedPages, key);
    const at = now();
    let previous = local;
    const { entry } = seen;
    if (entry !== undefined) {
      if (entry.freshUntil > at) {
        adopt(key, entry);
        sharedPages.countHit();
        return entry.kind === 'page'
          ? { kind: 'page', page: entry, cache: 'hit' }
          : refusalAnswer(entry, 'hit');
      }
      if (
        entry.kind === 'page' &&
        entry.staleUntil > at &&
        (previous === undefined || entry.freshUntil > previous.freshUntil)
      ) {
        adopt(key, entry);
        previous = entry;
      }
    }
    // Requests here may have started a flight while we asked.
    const flight = coalescer.inFlight(key);
    if (flight !== undefined) return answerOrStale(flight, previous, true);
    if (seen.hold !== undefined) {
      const { upstreamStatus, ...problem } = seen.hold.detail;
      return withheld(previous, {
        ...problem,
        retryAfterSeconds: Math.max(1, Math.ceil((seen.hold.untilMs - at) / 1000)),
        upstreamStatus,
      });
    }
    if (seen.fetching) {
      // Another replica is fetching it: wait for its result, merged like a local flight (and
      // free, like one); fetch here only if that comes to nothing.
      const waited = coalescer.start(key, async () => {
        const other = await fromOtherReplica(key, previous);
        if (other !== undefined) return other;
        // Inside the key's own flight: admitted, it fetches here rather than start another.
        const admission = await admit(key, client, previous);
        if (!admission.ok) return admission.answer;
        return fetchAndStore(lookup, key, previous, admission.pass);
      });
      return answerOrStale(waited, previous, true);
    }
    return fetchIfAllowed(lookup, key, client, previous);
  }

  return {
    async get(lookup, client) {
      const key = cacheKey(lookup);
      const at = now();
      const stored = cache.get(key);
      let previous: StoredPage | undefined;
      if (stored !== undefined) {
        if (stored.freshUntil > at) {
          if (stored.kind === 'page') return { kind: 'page', page: stored, cache: 'hit' };
          const { status, code, detail, upstreamStatus } = stored;
          return { kind: 'problem', status, code, detail, cache: 'hit', upstreamStatus };
        }
        if (stored.kind === 'page' && stored.staleUntil > at) previous = stored;
        else cache.delete(key);
      }

      const flight = coalescer.inFlight(key);
      if (flight !== undefined) return answerOrStale(flight, previous, true);
      if (shared !== undefined) return viaShared(shared, lookup, key, client, previous);
      return fetchIfAllowed(lookup, key, client, previous);
    },

    peek(lookup) {
      const stored = cache.get(cacheKey(lookup));
      return stored?.kind === 'page' && stored.staleUntil > now() ? stored : undefined;
    },
    fresh(lookup) {
      const stored = cache.get(cacheKey(lookup));
      return stored?.kind === 'page' && stored.freshUntil > now() ? stored : undefined;
    },

    freshShared:
      shared === undefined
        ? undefined
        : async (lookup) => {
            const key = cacheKey(lookup);
            const entry = await shared.entry(key);
            if (entry?.kind !== 'page' || entry.freshUntil <= now()) return undefined;
            adopt(key, entry);
            shared.countHit();
            return entry;
          },

    encode(lookup, page, encoding) {
      return encodeOnce(page, encoding, (copy) => {
        // The compressed copy occupies the cache too: the cache is bounded in bytes.
        page.encodedBytes += copy.length;
        cache.resize(cacheKey(lookup), page, storedPageCost(page));
      });
    },
  };
}
