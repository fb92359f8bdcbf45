import type { EndpointName } from '../shared/endpoints.ts';
import type { ProblemCode } from '../shared/problem.ts';
import type { ClientRateLimit } from './client-rate-limit.ts';
import type { Encoding } from './http/compression.ts';
import { encodeOnce, etagOf, type Representation } from './http/representation.ts';
import { rightSized, storedPageCost } from './memory-cost.ts';
import type { RequestCoalescer } from './request-coalescer.ts';
import type { ResponseCache } from './response-cache.ts';
import type { AnyPage, UpstreamClient } from './upstream-client.ts';
import { problemFor, type FailureProblem } from './upstream-failure.ts';
import type { Lookup } from './validate-lookup.ts';

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
  now?: () => number;
}

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
    now = Date.now,
  } = options;
  const freshMs = { ...DEFAULT_FRESH_MS, ...options.freshMs };

  /** The one upstream call for a key; its answer is shared by everyone merged into it. */
  async function fetchAndStore(
    lookup: Lookup,
    key: string,
    previous: StoredPage | undefined,
  ): Promise<PageAnswer> {
    const result = await upstream.fetchPage(lookup);
    const at = now();
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
      try {
        onPage?.(lookup, result.page);
      } catch {
        // An index fed on the side must never cost the reader the page.
      }
      return { kind: 'page', page, cache: 'miss', upstreamStatus: 200, attempts };
    }
    const upstreamStatus = result.failure.upstreamStatus;
    const problem = problemFor(lookup, result.failure);
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
    } else if (previous !== undefined && previous.staleUntil > at) {
      return { kind: 'page', page: previous, cache: 'stale', upstreamStatus, attempts };
    }
    return { kind: 'problem', ...problem, cache: 'miss', upstreamStatus, attempts };
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
      if (flight !== undefined) {
        const shared = await flight;
        if (shared.kind === 'page' && shared.cache === 'stale') return shared;
        return { ...shared, cache: 'merged' };
      }

      // From here on the request would spend quota, so the client's allowance applies.
      const allowed = clientRateLimit.take(client);
      if (!allowed.ok) {
        if (previous !== undefined) return { kind: 'page', page: previous, cache: 'stale' };
        return {
          kind: 'problem',
          status: 429,
          code: 'rate_limited',
          detail: 'Too many new pages requested from this address; slow down a little.',
          retryAfterSeconds: allowed.retryAfterSeconds,
          cache: 'none',
        };
      }
      return coalescer.start(key, () => fetchAndStore(lookup, key, previous));
    },

    peek(lookup) {
      const stored = cache.get(cacheKey(lookup));
      return stored?.kind === 'page' && stored.staleUntil > now() ? stored : undefined;
    },
    fresh(lookup) {
      const stored = cache.get(cacheKey(lookup));
      return stored?.kind === 'page' && stored.freshUntil > now() ? stored : undefined;
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
