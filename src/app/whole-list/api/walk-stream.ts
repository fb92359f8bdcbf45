import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import { ndjsonLines } from '../../api/ndjson.ts';
import type { EndpointName, EndpointPage } from '../../../shared/endpoints.ts';
import {
  walkEventSchema,
  walkPath,
  type WalkCost,
  type WalkProgress,
  type WalkStop,
} from '../../../shared/whole-list.ts';
import { readPage, request } from '../../api/api-client.ts';
import { ApiError } from '../../api/api-error.ts';
import { pagesOptions } from '../../api/catalogue-queries.ts';

// "Load all": the server walks a list's continuation chain and streams each page as it reads
// it (NDJSON, GET /api/walk/{list}/{id}). The pages go into the view's own infinite query, in
// chain order, the pages it already holds skipped, in batches (at most one write per
// `commitEveryMs`, and one at the end) as page-chain.ts does, so the list below scrolls
// through them as they come. Aborting the request stops the walk on the server too.

export interface Chain<P> {
  pages: readonly P[];
  pageParams: readonly (string | null)[];
}

/**
 * The cached chain with the walk's pages added: a page the cache holds at the same place, asked
 * for with the same continuation, is kept as it is; where the two differ (the list changed
 * between them), the walk's pages replace the cache's from there on; the walk's pages past the
 * cache's end are appended. Null when the cache already holds all of them.
 */
export function mergeChain<P>(cached: Chain<P>, walk: Chain<P>): Chain<P> | null {
  const shared = Math.min(cached.pages.length, walk.pages.length);
  for (let i = 0; i < shared; i++) {
    if (cached.pageParams[i] !== walk.pageParams[i]) {
      return {
        pages: [...cached.pages.slice(0, i), ...walk.pages.slice(i)],
        pageParams: [...cached.pageParams.slice(0, i), ...walk.pageParams.slice(i)],
      };
    }
  }
  if (walk.pages.length <= cached.pages.length) return null;
  return {
    pages: [...cached.pages, ...walk.pages.slice(shared)],
    pageParams: [...cached.pageParams, ...walk.pageParams.slice(shared)],
  };
}

export type WalkOutcome =
  | { kind: 'complete'; progress: WalkProgress }
  /** The server stopped before the list's end (quota, upstream failure): why. */
  | { kind: 'stopped'; progress: WalkProgress; stoppedBy: WalkStop | null }
  /** The stream ended without saying so (the connection was cut). */
  | { kind: 'cut'; progress: WalkProgress | null }
  | { kind: 'cancelled'; progress: WalkProgress | null }
  /** Refused before it started, or unreadable. */
  | { kind: 'failed'; error: unknown; progress: WalkProgress | null };

export interface LoadAllOptions {
  signal: AbortSignal;
  onStart?: (cost: WalkCost) => void;
  onProgress?: (progress: WalkProgress) => void;
  commitEveryMs?: number;
}

type Pages<E extends EndpointName> = InfiniteData<EndpointPage<E>, string | null>;

export async function loadAll<E extends EndpointName>(
  queryClient: QueryClient,
  endpoint: E,
  id: string,
  { signal, onStart, onProgress, commitEveryMs = 100 }: LoadAllOptions,
): Promise<WalkOutcome> {
  const { queryKey } = pagesOptions(endpoint, id);
  const walk: { pages: EndpointPage<E>[]; pageParams: (string | null)[] } = {
    pages: [],
    pageParams: [],
  };
  let committed = 0;
  let lastCommit = performance.now();
  let progress: WalkProgress | null = null;

  const commit = () => {
    if (walk.pages.length === committed) return;
    const cached = queryClient.getQueryData<Pages<E>>(queryKey);
    const merged = mergeChain<EndpointPage<E>>(cached ?? { pages: [], pageParams: [] }, walk);
    if (merged !== null) {
      queryClient.setQueryData<Pages<E>>(queryKey, {
        pages: [...merged.pages],
        pageParams: [...merged.pageParams],
      });
    }
    committed = walk.pages.length;
    lastCommit = performance.now();
  };

  try {
    // A page request of the list's own in flight would write its older copy of the list over
    // the walk's pages when it lands: it is called off (the list asks again if it must).
    await queryClient.cancelQueries({ queryKey, exact: true });
    const response = await request(walkPath(endpoint, id), signal, 'application/x-ndjson');
    if (response.body === null) throw new ApiError('malformed', 'The walk sent no stream.');
    for await (const line of ndjsonLines(response.body)) {
      let event;
      try {
        event = walkEventSchema.parse(JSON.parse(line));
      } catch (cause) {
        throw new ApiError('malformed', 'The server sent a walk event the explorer cannot read.', {
          cause,
        });
      }
      switch (event.type) {
        case 'start':
          onStart?.(event.cost);
          break;
        case 'page': {
          const page = readPage(endpoint, event.page);
          if (page === null) {
            throw new ApiError('malformed', 'The server sent a page the explorer cannot read.');
          }
          walk.pages.push(page);
          walk.pageParams.push(event.param);
          progress = event.progress;
          onProgress?.(progress);
          if (performance.now() - lastCommit >= commitEveryMs) commit();
          break;
        }
        case 'end':
          commit();
          progress = event.progress;
          onProgress?.(progress);
          return event.complete
            ? { kind: 'complete', progress }
            : { kind: 'stopped', progress, stoppedBy: event.stoppedBy };
      }
    }
    commit();
    return { kind: 'cut', progress };
  } catch (error) {
    // What was read stays: the list scrolls through it.
    commit();
    if (signal.aborted) return { kind: 'cancelled', progress };
    return { kind: 'failed', error, progress };
  }
}
