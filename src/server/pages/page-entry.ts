import type { ProblemCode } from '../../shared/problem.ts';
import type { Representation } from '../http/representation.ts';
import { JSON_TYPE, type HeaderRecord } from '../http/responses.ts';
import type { AnyPage } from '../upstream/client.ts';
import type { FailureProblem } from '../upstream/failure.ts';
import type { Lookup } from '../upstream/lookup.ts';

// What the page cache holds and what the page source answers: the words every part of the
// page path shares (the source, its second level, the routes, the fast path, the walks), kept
// in a module that imports none of them.

export type CacheStatus = 'hit' | 'miss' | 'stale' | 'merged';

/** Browsers may reuse an API answer this long without asking (pages change slowly). */
const API_MAX_AGE_SECONDS = 60;

/** The headers of a page answer, the route's and the fast path's alike. */
export function pageHeaders(cache: CacheStatus): HeaderRecord {
  return {
    'Content-Type': JSON_TYPE,
    // A stale copy stood in for a failed upstream: let the browser ask again next time.
    'Cache-Control': cache === 'stale' ? 'no-cache' : `public, max-age=${API_MAX_AGE_SECONDS}`,
    'X-Cache': cache,
  };
}

/** A page as stored and sent: the upstream's own bytes, checked against the schema. */
export interface StoredPage extends Representation {
  kind: 'page';
  freshUntil: number;
  staleUntil: number;
  /** Bytes of the compressed copies made so far (the cache counts them too). */
  encodedBytes: number;
  /** Bytes other parts keep beside the page (its renders): charged to its entry too. */
  besideBytes?: number;
}

/** A definite "no" from the upstream (400/404), kept briefly so repeats cost no quota. */
export interface StoredRefusal {
  kind: 'refusal';
  status: 400 | 404;
  code: ProblemCode;
  detail: string;
  upstreamStatus: number;
  freshUntil: number;
}

/** What the page cache holds: pages, and the upstream's recent refusals. */
export type PageCacheEntry = StoredPage | StoredRefusal;

/** What a held-back page answers with: its last failure's problem. */
export type HeldFailure = FailureProblem & { upstreamStatus?: number };

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

/** The cache's key for a lookup: one entry per page of a list. */
export const cacheKey = (lookup: Lookup) =>
  `${lookup.endpoint} ${lookup.id} ${lookup.continuation ?? ''}`;

/** A refusal as an answer. */
export function refusalAnswer(stored: StoredRefusal, cache: CacheStatus): PageAnswer {
  const { status, code, detail, upstreamStatus } = stored;
  return { kind: 'problem', status, code, detail, cache, upstreamStatus };
}
