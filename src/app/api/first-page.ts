import type { QueryClient } from '@tanstack/react-query';
import type { FirstPage } from '../../shared/app-render.ts';
import { requestedList } from '../../shared/app-routes.ts';
import type { EndpointName, EndpointPage } from '../../shared/endpoints.ts';
import { problemSchema } from '../../shared/problem.ts';
import { parsePage } from './api-client.ts';
import { ApiError } from './api-error.ts';
import { pagesOptions } from './catalogue-queries.ts';

// On the server, a view's first page (or the upstream's definite "no", or its failure) is put
// into the query cache before rendering, so the view renders its rows (or its not-found message,
// or its error with Retry) as it would once fetched; the cache is then dehydrated into the HTML and the client starts from it.

/** Whether a page can stand first in its list. A playlist's first page always carries `info` (spec §4.1). */
const canBeFirst: { [E in EndpointName]?: (page: EndpointPage<E>) => boolean } = {
  playlist: (page) => page.info !== undefined,
};

function seedPage<E extends EndpointName>(
  queryClient: QueryClient,
  endpoint: E,
  id: string,
  raw: unknown,
): boolean {
  const page = parsePage(endpoint, raw);
  if (page === null || canBeFirst[endpoint]?.(page) === false) return false;
  queryClient.setQueryData(pagesOptions(endpoint, id).queryKey, {
    pages: [page],
    pageParams: [null],
  });
  return true;
}

/** The list's query, failed with `error`, as a fetch that met the same answer would leave it. */
function seedError(queryClient: QueryClient, endpoint: EndpointName, id: string, error: ApiError) {
  const { queryKey } = pagesOptions(endpoint, id);
  const query = queryClient.getQueryCache().build(queryClient, { queryKey });
  query.setState({
    status: 'error',
    error,
    errorUpdatedAt: Date.now(),
    errorUpdateCount: 1,
    fetchFailureCount: 1,
    fetchFailureReason: error,
    fetchStatus: 'idle',
  });
}

/**
 * Seeds the first page of the list the URL shows, or its problem; returns whether it did. The
 * same reading of the URL as the server's, which chose the page: a page for another list (a
 * stale cache entry, a changed route table) is never shown under this one.
 */
export function seedFirstPage(
  queryClient: QueryClient,
  first: FirstPage,
  location: { pathname: string; search: string },
): boolean {
  const list = requestedList(location.pathname, new URLSearchParams(location.search));
  if (!list || list.endpoint !== first.endpoint || list.id !== first.id) return false;
  if ('problem' in first) {
    const problem = problemSchema.safeParse(first.problem);
    if (!problem.success) return false;
    // As a fetch that met the same answer would have it (api-client.ts): a failed page says
    // how long to wait, and the view counts it down.
    const error = new ApiError('http', problem.data.title, {
      status: problem.data.status,
      problem: problem.data,
      retryAfter: problem.data.retryAfter ?? null,
    });
    seedError(queryClient, list.endpoint, list.id, error);
    return true;
  }
  return seedPage(queryClient, list.endpoint, list.id, first.page);
}
