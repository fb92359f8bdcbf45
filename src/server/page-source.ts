import { createHash } from 'node:crypto';
import type { EndpointName } from '../shared/endpoints.ts';
import { problemCodes, type ProblemCode } from '../shared/problem.ts';
import type { ClientRateLimit } from './client-rate-limit.ts';
import { compress, type Encoding } from './compression.ts';
import type { RequestCoalescer } from './request-coalescer.ts';
import type { ResponseCache } from './response-cache.ts';
import type { UpstreamClient, UpstreamFailure } from './upstream-client.ts';
import type { Lookup } from './validate-lookup.ts';

// Where every page comes from, for the API and for the first page shipped inside the HTML
// alike (issue #3): the cache first; then a request already in flight for the same page; and
// only then, if this client may spend quota, one upstream call. When that call fails, a stale
// copy is better than an error (issue #3: "serving stale pages when the upstream fails").

export type CacheStatus = 'hit' | 'miss' | 'stale' | 'merged';

/** A page as stored and sent: the upstream's own bytes, checked against the schema. */
export interface StoredPage {
  kind: 'page';
  body: Buffer;
  /** Strong validator of the identity bytes (quoted). */
  etag: string;
  freshUntil: number;
  staleUntil: number;
  /** Compressed copies, made once on first demand. */
  encoded: Partial<Record<Encoding, Promise<Buffer>>>;
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
  | {
      kind: 'problem';
      status: 400 | 404 | 429 | 502 | 503 | 504;
      code: ProblemCode;
      detail: string;
      retryAfterSeconds?: number;
      cache: CacheStatus | 'none';
      upstreamStatus?: number;
      attempts?: number;
    };

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
  now?: () => number;
}

export interface PageSource {
  get(lookup: Lookup, client: string): Promise<PageAnswer>;
  /** The page's body in `encoding`, compressed once and kept with the cached page. */
  encode(lookup: Lookup, page: StoredPage, encoding: Encoding): Promise<Buffer>;
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

export const etagOf = (body: Buffer) => `"${createHash('sha1').update(body).digest('base64url')}"`;

const knownCodes = new Set<string>(problemCodes);

/** Turns an upstream failure into what the browser gets (issue #3, "Error mapping"). */
export function failureToProblem(
  lookup: Lookup,
  failure: UpstreamFailure,
): Extract<PageAnswer, { kind: 'problem' }> {
  const base = {
    kind: 'problem' as const,
    cache: 'none' as const,
    upstreamStatus: failure.upstreamStatus,
  };
  switch (failure.kind) {
    case 'bad_request': {
      const fallback: ProblemCode =
        lookup.continuation === undefined ? 'invalid_id' : 'invalid_continuation';
      const code =
        failure.code !== undefined && knownCodes.has(failure.code)
          ? (failure.code as ProblemCode)
          : fallback;
      return {
        ...base,
        status: 400,
        code,
        detail: failure.detail ?? 'The catalogue did not accept this request.',
      };
    }
    case 'not_found': {
      const fallback: ProblemCode =
        lookup.endpoint === 'playlist' ? 'playlist_not_found' : 'channel_not_found';
      const code =
        failure.code === 'playlist_not_found' ||
        failure.code === 'channel_not_found' ||
        failure.code === 'not_found'
          ? failure.code
          : fallback;
      return {
        ...base,
        status: 404,
        code,
        detail: failure.detail ?? 'The catalogue has no such item.',
      };
    }
    case 'rate_limited':
    case 'quota_paused':
      return {
        ...base,
        status: 429,
        code: 'upstream_rate_limited',
        detail: 'The catalogue asked the explorer to slow down; try again shortly.',
        retryAfterSeconds: failure.retryAfterSeconds,
      };
    case 'quota_exhausted':
      return {
        ...base,
        status: 429,
        code: 'quota_exhausted',
        detail: "The explorer has used this hour's catalogue quota; try again later.",
        retryAfterSeconds: failure.retryAfterSeconds,
      };
    case 'credentials_rejected':
      return {
        ...base,
        status: 502,
        code: 'upstream_credentials_rejected',
        detail:
          'The catalogue rejected the explorer’s credentials; the operator has to fix its configuration.',
      };
    case 'server_error':
      return {
        ...base,
        status: 502,
        code: 'upstream_error',
        detail: `The catalogue failed to answer (status ${failure.upstreamStatus}).`,
      };
    case 'bad_response':
      return {
        ...base,
        status: 502,
        code: 'upstream_bad_response',
        detail: 'The catalogue sent an answer the explorer cannot use.',
      };
    case 'timeout':
      return {
        ...base,
        status: 504,
        code: 'upstream_timeout',
        detail: 'The catalogue did not answer in time.',
      };
    case 'unreachable':
      return {
        ...base,
        status: 503,
        code: 'upstream_unavailable',
        detail: 'The catalogue cannot be reached right now.',
        retryAfterSeconds: 5,
      };
  }
}

export function createPageSource(options: PageSourceOptions): PageSource {
  const {
    upstream,
    cache,
    coalescer,
    clientRateLimit,
    staleMs = 24 * 3600_000,
    refusalMs = 60_000,
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
    if (result.ok) {
      const page: StoredPage = {
        kind: 'page',
        body: result.body,
        etag: etagOf(result.body),
        freshUntil: at + freshMs[lookup.endpoint],
        staleUntil: at + freshMs[lookup.endpoint] + staleMs,
        encoded: {},
        encodedBytes: 0,
      };
      cache.set(key, page, page.body.length);
      return { kind: 'page', page, cache: 'miss', upstreamStatus: 200, attempts: result.attempts };
    }
    const problem = { ...failureToProblem(lookup, result.failure), attempts: result.attempts };
    if (problem.status === 400 || problem.status === 404) {
      // The upstream's definite answer about this input: remember it, and drop any old page.
      const refusal: StoredRefusal = {
        kind: 'refusal',
        status: problem.status,
        code: problem.code,
        detail: problem.detail,
        upstreamStatus: problem.upstreamStatus ?? problem.status,
        freshUntil: at + refusalMs,
      };
      cache.set(key, refusal, refusal.detail.length * 2 + 64);
      return { ...problem, cache: 'miss' };
    }
    if (previous !== undefined && previous.staleUntil > at) {
      return {
        kind: 'page',
        page: previous,
        cache: 'stale',
        upstreamStatus: problem.upstreamStatus,
        attempts: result.attempts,
      };
    }
    return { ...problem, cache: 'miss' };
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
          return {
            kind: 'problem',
            status: stored.status,
            code: stored.code,
            detail: stored.detail,
            cache: 'hit',
            upstreamStatus: stored.upstreamStatus,
          };
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

    encode(lookup, page, encoding) {
      const existing = page.encoded[encoding];
      if (existing !== undefined) return existing;
      const pending = compress(page.body, encoding);
      page.encoded[encoding] = pending;
      void pending.then(
        (buffer) => {
          // The compressed copy occupies the cache too (issue #3: bounded in bytes).
          page.encodedBytes += buffer.length;
          cache.resize(cacheKey(lookup), page, page.body.length + page.encodedBytes);
        },
        () => delete page.encoded[encoding],
      );
      return pending;
    },
  };
}
