import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo } from 'react';
import type { EndpointName, EndpointPage } from '../../shared/endpoints.ts';
import { notePage, pagesOptions } from '../api/catalogue-queries.ts';
import { continuationRepeats } from '../api/continuation-guard.ts';
import type { FooterState } from '../components/list-states.tsx';
import { formatCount } from '../lib/format.ts';
import { describeProblem, type ProblemText } from '../lib/problem-text.ts';
import { useListEntryScroll } from './use-entry-scroll.ts';

// What every endless list derives from its lookup's infinite query: the items in order, the
// first page's problem, whether to ask for the next page, which footer to show, and where the
// window goes when the view opens.

export type PageItem<E extends EndpointName> = EndpointPage<E>['items'][number];

/** What the paged-list component shows; the views read the rest of `usePagedList`'s answer. */
export interface PagedListState {
  /** The first page has arrived. */
  loaded: boolean;
  count: number;
  hasNextPage: boolean;
  /** The first page failed: what to say, since when (for a Retry-After countdown). */
  problem: ProblemText | null;
  problemSince: number;
  retry: () => void;
  /** Drops every page and starts the list over. */
  reload: () => void;
  /** Asks for the next page when there is one and nothing is in flight or failed. */
  loadMore: () => void;
  footer: FooterState | null;
  /** The window position to restore when the list first shows (back/forward). */
  restoreY: number | undefined;
}

export interface PagedList<E extends EndpointName> extends PagedListState {
  pages: readonly EndpointPage<E>[] | undefined;
  items: PageItem<E>[];
  /** The last request for the list failed (its first page or a later one). */
  isError: boolean;
  /** Asks for the next page at once; settles with the list as it then stands. */
  fetchNext: () => Promise<{ items: PageItem<E>[]; hasNextPage: boolean; isError: boolean }>;
}

export function usePagedList<E extends EndpointName>(
  endpoint: E,
  id: string,
  endText: (count: number) => string,
): PagedList<E> {
  const queryClient = useQueryClient();
  const options = pagesOptions(endpoint, id);
  // Before the query: whether the pages were cached when the view opened decides the scroll.
  const restoreY = useListEntryScroll(options.queryKey);
  const {
    data,
    hasNextPage,
    isError,
    isFetching,
    isFetchingNextPage,
    isFetchNextPageError,
    fetchNextPage,
    refetch,
    error,
    errorUpdatedAt,
  } = useInfiniteQuery(options);

  const items = useMemo(() => itemsOf(data?.pages ?? []), [data]);
  // What pages teach the app besides their rows (channel titles), fetched here or rendered by
  // the server alike; each page once.
  useEffect(() => {
    for (const page of data?.pages ?? []) notePage(endpoint, page);
  }, [endpoint, data]);
  const subject = endpoint === 'playlist' ? 'playlist' : 'channel';
  const lastPage = data?.pages.at(-1);
  const repeated = data ? continuationRepeats(lastPage?.continuation, data.pageParams) : false;

  const loadMore = () => {
    // cancelRefetch: false makes a second call while a page is in flight a no-op.
    if (hasNextPage && !isFetching && !isFetchNextPageError)
      void fetchNextPage({ cancelRefetch: false });
  };
  const retryNext = () => void fetchNextPage({ cancelRefetch: false });
  const reload = () => void queryClient.resetQueries({ queryKey: options.queryKey, exact: true });

  // Stable (TanStack's fetchNextPage is), so a seek loop can hold on to it.
  const fetchNext = useCallback(async () => {
    const result = await fetchNextPage({ cancelRefetch: false });
    return {
      items: itemsOf(result.data?.pages ?? []),
      hasNextPage: result.hasNextPage,
      isError: result.isError,
    };
  }, [fetchNextPage]);

  let footer: FooterState | null = null;
  if (data && items.length > 0) {
    if (isFetchNextPageError) {
      footer = {
        kind: 'error',
        problem: describeProblem(error, subject, id),
        since: errorUpdatedAt,
        onRetry: retryNext,
        onReload: reload,
      };
    } else if (isFetchingNextPage) footer = { kind: 'loading' };
    else if (hasNextPage) footer = { kind: 'more' };
    else if (repeated) {
      footer = {
        kind: 'stopped',
        text: `Loading stopped after ${formatCount(items.length)} items: the catalogue pointed back to a page it had already sent.`,
      };
    } else footer = { kind: 'end', text: endText(items.length) };
  }

  return {
    loaded: data !== undefined,
    count: items.length,
    hasNextPage,
    problem: isError && !data ? describeProblem(error, subject, id) : null,
    problemSince: errorUpdatedAt,
    retry: () => void refetch(),
    reload,
    loadMore,
    footer,
    restoreY,
    pages: data?.pages,
    items,
    isError,
    fetchNext,
  };
}

function itemsOf<E extends EndpointName>(pages: readonly EndpointPage<E>[]): PageItem<E>[] {
  return pages.flatMap((page): PageItem<E>[] => page.items);
}
