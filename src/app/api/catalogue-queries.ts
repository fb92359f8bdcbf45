import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import type { EndpointName, EndpointPage } from '../../shared/endpoints.ts';
import { rememberChannelTitles, rememberPlaylistChannels } from '../lib/channel-titles.ts';
import { fetchDemoEntries, fetchPage } from './api-client.ts';
import { nextContinuation } from './continuation-guard.ts';
import { isLetGo } from './let-go-page.ts';

// Query-options factories, next to the client (house style). Keys go from generic to specific
// and every view's list has its own key, so a late answer can only land in its own list.
// The page parameter is the continuation (spec §2.6); null asks for the first page.

const catalogueKeys = {
  all: ['catalogue'] as const,
  pages: (endpoint: EndpointName, id: string) =>
    [...catalogueKeys.all, endpoint, id, 'pages'] as const,
  demoEntries: () => ['demo-entries'] as const,
};

/**
 * What the app learns from pages besides their rows, whether fetched or rendered by the server:
 * playlist pages name channels, so their titles are remembered for the channel views.
 */
const learnFrom: { [E in EndpointName]?: (pages: readonly EndpointPage<E>[]) => void } = {
  playlist: rememberPlaylistChannels,
};
const noted = new WeakSet<object>();

/**
 * Learns from each page once, however often a list's pages are looked at, and from all the
 * new ones together (one write to storage for a batch of pages, not one per page).
 */
export function notePages<E extends EndpointName>(
  endpoint: E,
  pages: readonly EndpointPage<E>[],
): void {
  // A page let go (page-trim.ts) has nothing to learn from; it is learnt from again once back.
  const fresh = pages.filter((page) => !noted.has(page) && !isLetGo(page));
  if (fresh.length === 0) return;
  for (const page of fresh) noted.add(page);
  learnFrom[endpoint]?.(fresh);
}

const firstPage = null as string | null;

/** Any lookup's pages as one endless list. */
export function pagesOptions<E extends EndpointName>(endpoint: E, id: string) {
  return infiniteQueryOptions({
    queryKey: catalogueKeys.pages(endpoint, id),
    queryFn: async ({ pageParam, signal }) => {
      return fetchPage(endpoint, id, pageParam, signal);
    },
    initialPageParam: firstPage,
    getNextPageParam: (last, _pages, _lastParam, params) =>
      nextContinuation(last.continuation, params),
  });
}

export function demoEntriesOptions() {
  return queryOptions({
    queryKey: catalogueKeys.demoEntries(),
    queryFn: async ({ signal }) => {
      const { entries } = await fetchDemoEntries(signal);
      rememberChannelTitles(
        entries.filter((e) => e.kind === 'channel').map((e) => [e.id, e.title] as const),
      );
      return entries;
    },
    // 404 means "not the embedded catalogue": nothing to show, nothing to retry.
    retry: false,
    staleTime: Infinity,
  });
}
