import type { EndpointName } from '../../shared/endpoints.ts';
import type { Encoding } from '../http/compression.ts';
import { encodeOnce, etagOf } from '../http/representation.ts';
import type { AnyPage, UpstreamClient } from '../upstream/client.ts';
import { problemFor } from '../upstream/failure.ts';
import type { Lookup } from '../upstream/lookup.ts';
import { withheld, type Admission, type CallPass } from './admission.ts';
import { rightSized } from '../http/representation.ts';
import {
  cacheKey,
  refusalAnswer,
  type CacheStatus,
  type PageAnswer,
  type PageCacheEntry,
  type StoredPage,
  type StoredRefusal,
} from './page-entry.ts';
import type { RequestCoalescer } from './request-coalescer.ts';
import type { ResponseCache } from './response-cache.ts';
import type { SecondLevel, SecondLevelRead } from './second-level.ts';

// Where every page comes from, for the API and for the first page inside the HTML alike: this
// process's cache; then a request already in flight for it; then the second level (other
// replicas', when there are any); and only then, if admitted (admission.ts), one upstream call.
// When that call fails, a stale copy beats an error: the reader keeps what they had. The second
// level and the client's allowance are ports from the composition root, in memory or in Redis;
// nothing here knows which.

export interface PageSourceOptions {
  upstream: Pick<UpstreamClient, 'fetchPage'>;
  cache: ResponseCache;
  coalescer: RequestCoalescer<PageAnswer>;
  admission: Admission;
  secondLevel: SecondLevel;
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
   * With a stale copy at hand, how long a request waits for the upstream before getting the
   * copy; the call goes on and refreshes the cache if it succeeds. Unset: the whole deadline.
   */
  staleAfterMs?: number;
  /** How long a request waits for someone else's fetch of the same page before its own. */
  secondLevelWaitMs?: number;
  now?: () => number;
}

export interface GetOptions {
  /**
   * Whether a page fetched for this request is kept, here and in the second level: true unless
   * said. A job's walk says false: its pages, read once, would push out what people read. Such a
   * page is fetched without a claim in the second level and without waiting on another's: a
   * replica that died holding one would hold up the job's takeover, and a live one costs at most
   * a lookup asked twice.
   */
  keep?: boolean;
}

export interface PageSource {
  get(lookup: Lookup, client: string, options?: GetOptions): Promise<PageAnswer>;
  /** The page's body in `encoding`, compressed once and kept with the cached page. */
  encode(lookup: Lookup, page: StoredPage, encoding: Encoding): Promise<Buffer>;
  /**
   * The page the cache holds for `lookup`, fresh or still servable stale, or undefined: a read
   * that never asks the upstream, never waits and spends nobody's allowance (link previews).
   */
  peek(lookup: Lookup): StoredPage | undefined;
  /**
   * The page for `lookup` when this process's cache holds it fresh, as `get` would answer it
   * (a hit), or undefined: for the fast path, which answers only what needs no decision
   * (cached-page-fast-path.ts).
   */
  fresh(lookup: Lookup): StoredPage | undefined;
  /**
   * The page fresh in the second level, kept in this process's cache from then on (a hit, as
   * `get` would answer it), or undefined for anything else: only for a request `fresh` could
   * not answer. At once when there is no second level.
   */
  freshInSecondLevel(lookup: Lookup): StoredPage | undefined | Promise<StoredPage | undefined>;
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

export function createPageSource(options: PageSourceOptions): PageSource {
  const {
    upstream,
    cache,
    coalescer,
    admission,
    secondLevel,
    staleMs = 24 * 3600_000,
    refusalMs = 60_000,
    onPage,
    staleAfterMs,
    secondLevelWaitMs = 10_000,
    now = Date.now,
  } = options;
  const freshMs = { ...DEFAULT_FRESH_MS, ...options.freshMs };

  /** A second-level entry still fresh, as an answer (kept here from now on). */
  const adopted = (key: string, entry: PageCacheEntry, status: CacheStatus): PageAnswer => {
    cache.set(key, entry);
    return entry.kind === 'page'
      ? { kind: 'page', page: entry, cache: status }
      : refusalAnswer(entry, status);
  };

  /** A page held back elsewhere: its stale copy or its problem, until the hold ends. */
  const heldElsewhere = (
    hold: NonNullable<SecondLevelRead['hold']>,
    previous: StoredPage | undefined,
    at: number,
  ) =>
    withheld(previous, {
      ...hold.detail,
      retryAfterSeconds: Math.max(1, Math.ceil((hold.untilMs - at) / 1000)),
    });

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

  /**
   * Waits for the fetch someone else claimed; its answer (merged), or undefined when the claim
   * ended without a result to share or the wait ran out: then this process may fetch.
   */
  async function fromElsewhere(
    key: string,
    previous: StoredPage | undefined,
  ): Promise<PageAnswer | undefined> {
    const { entry, hold } = await secondLevel.waitFor(key, secondLevelWaitMs);
    const at = now();
    if (entry !== undefined && entry.freshUntil > at) {
      secondLevel.countMerged();
      return adopted(key, entry, 'merged');
    }
    if (hold !== undefined) return heldElsewhere(hold, previous, at);
    return undefined;
  }

  /** The one upstream call for a key; its answer is shared by everyone merged into it. */
  async function fetchAndStore(
    lookup: Lookup,
    key: string,
    previous: StoredPage | undefined,
    pass: CallPass,
    keepIt = true,
  ): Promise<PageAnswer> {
    if (keepIt && !(await secondLevel.claim(key))) {
      // Someone else claimed the page since we looked: their result rather than a second call.
      const other = await fromElsewhere(key, previous);
      if (other !== undefined) {
        admission.unused(key, pass);
        return other;
      }
    }
    const result = await upstream.fetchPage(lookup);
    const at = now();
    const { attempts } = result;
    if (result.ok) {
      admission.settle(key, pass, result, undefined);
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
      if (keepIt) {
        cache.set(key, page);
        secondLevel.store(key, page, page.staleUntil - at);
      }
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
    const hold = admission.settle(key, pass, result, { ...problem, upstreamStatus });
    // Ask again no sooner than the back-off and the breaker (which this failure may just have
    // opened) let a call go: say so to the client too.
    const wait = Math.max(hold?.retryAfterSeconds ?? 0, admission.nextCallIn() ?? 0);
    if (wait > 0) problem.retryAfterSeconds = Math.max(problem.retryAfterSeconds ?? 0, wait);
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
      cache.set(key, refusal);
      secondLevel.store(key, refusal, refusalMs);
    } else {
      // Others waiting for this fetch go on: held back with us, or free to try for themselves.
      // A job's fetch claimed nothing and has no one waiting: a claim there is another's.
      if (keepIt)
        secondLevel.release(
          key,
          hold === undefined ? undefined : { detail: hold.detail, untilMs: hold.untilMs },
        );
      if (previous !== undefined && previous.staleUntil > at)
        return { kind: 'page', page: previous, cache: 'stale', upstreamStatus, attempts };
    }
    return { kind: 'problem', ...problem, cache: 'miss', upstreamStatus, attempts };
  }

  /** Past the caches and the flights: the one upstream call for the page, if admitted. */
  function fetchIfAdmitted(
    lookup: Lookup,
    key: string,
    client: string,
    previous: StoredPage | undefined,
    keepIt: boolean,
  ): Promise<PageAnswer> {
    const go = (admitted: Awaited<ReturnType<Admission['admit']>>): Promise<PageAnswer> => {
      if (!admitted.ok) return Promise.resolve(admitted.answer);
      // Another request for the page may have started while the allowance was asked.
      const flight = coalescer.inFlight(key);
      if (flight !== undefined) {
        admission.unused(key, admitted.pass);
        return answerOrStale(flight, previous, true);
      }
      // Or ended: a request the breaker held for the key's trial (admission.ts) may find the
      // page the trial, or one let go before it, just fetched.
      const stored = cache.get(key);
      if (stored !== undefined && stored.freshUntil > now()) {
        admission.unused(key, admitted.pass);
        return Promise.resolve(
          stored.kind === 'page'
            ? { kind: 'page', page: stored, cache: 'merged' }
            : refusalAnswer(stored, 'merged'),
        );
      }
      const started = coalescer.start(key, () =>
        fetchAndStore(lookup, key, previous, admitted.pass, keepIt),
      );
      return answerOrStale(started, previous, false);
    };
    const admitted = admission.admit(key, client, previous);
    return admitted instanceof Promise ? admitted.then(go) : go(admitted);
  }

  /** What the second level says of the page, then `fetchIfAdmitted`. */
  function afterSecondLevel(
    seen: SecondLevelRead,
    lookup: Lookup,
    key: string,
    client: string,
    local: StoredPage | undefined,
    keepIt: boolean,
  ): Promise<PageAnswer> {
    const at = now();
    let previous = local;
    const { entry } = seen;
    if (entry !== undefined) {
      if (entry.freshUntil > at) {
        secondLevel.countHit();
        if (!keepIt && entry.kind === 'page')
          return Promise.resolve({ kind: 'page', page: entry, cache: 'hit' });
        return Promise.resolve(adopted(key, entry, 'hit'));
      }
      if (
        entry.kind === 'page' &&
        entry.staleUntil > at &&
        (previous === undefined || entry.freshUntil > previous.freshUntil)
      ) {
        cache.set(key, entry);
        previous = entry;
      }
    }
    // Requests here may have started a flight while the second level was asked.
    const flight = coalescer.inFlight(key);
    if (flight !== undefined) return answerOrStale(flight, previous, true);
    if (seen.hold !== undefined) return Promise.resolve(heldElsewhere(seen.hold, previous, at));
    if (seen.fetching && keepIt) {
      // Someone else is fetching it: wait for their result, merged like a local flight (and
      // free, like one); fetch here only if that comes to nothing.
      const waited = coalescer.start(key, async () => {
        const other = await fromElsewhere(key, previous);
        if (other !== undefined) return other;
        // Inside the key's own flight: admitted, it fetches here rather than start another.
        const admitted = await admission.admit(key, client, previous);
        if (!admitted.ok) return admitted.answer;
        return fetchAndStore(lookup, key, previous, admitted.pass, keepIt);
      });
      return answerOrStale(waited, previous, true);
    }
    return fetchIfAdmitted(lookup, key, client, previous, keepIt);
  }

  return {
    async get(lookup, client, { keep: keepIt = true } = {}) {
      const key = cacheKey(lookup);
      const at = now();
      const stored = cache.get(key);
      let previous: StoredPage | undefined;
      if (stored !== undefined) {
        if (stored.freshUntil > at) {
          return stored.kind === 'page'
            ? { kind: 'page', page: stored, cache: 'hit' }
            : refusalAnswer(stored, 'hit');
        }
        if (stored.kind === 'page' && stored.staleUntil > at) previous = stored;
        else cache.delete(key);
      }

      const flight = coalescer.inFlight(key);
      if (flight !== undefined) return answerOrStale(flight, previous, true);
      const seen = secondLevel.read(key);
      return seen instanceof Promise
        ? seen.then((read) => afterSecondLevel(read, lookup, key, client, previous, keepIt))
        : afterSecondLevel(seen, lookup, key, client, previous, keepIt);
    },

    peek(lookup) {
      const stored = cache.get(cacheKey(lookup));
      return stored?.kind === 'page' && stored.staleUntil > now() ? stored : undefined;
    },
    fresh(lookup) {
      const stored = cache.get(cacheKey(lookup));
      return stored?.kind === 'page' && stored.freshUntil > now() ? stored : undefined;
    },

    freshInSecondLevel(lookup) {
      const key = cacheKey(lookup);
      const found = (entry: PageCacheEntry | undefined) => {
        if (entry?.kind !== 'page' || entry.freshUntil <= now()) return undefined;
        cache.set(key, entry);
        secondLevel.countHit();
        return entry;
      };
      const entry = secondLevel.entry(key);
      return entry instanceof Promise ? entry.then(found) : found(entry);
    },

    encode(lookup, page, encoding) {
      return encodeOnce(page, encoding, (copy) => {
        // The compressed copy occupies the cache too: the cache is bounded in bytes.
        page.encodedBytes += copy.length;
        cache.measure(cacheKey(lookup), page);
      });
    },
  };
}
