import {
  useQueryClient,
  type InfiniteData,
  type QueryKey,
  type UseInfiniteQueryResult,
} from '@tanstack/react-query';
import { useMemo } from 'react';
import { continuationRepeats } from '../api/continuation-guard.ts';
import type { FooterState } from '../components/list-states.tsx';
import { describeProblem, type Subject } from '../lib/problem-text.ts';

// What every endless list derives from its infinite query: the items in order, whether to ask
// for the next page, and which footer to show (issue #4).

interface Page<T> {
  items: T[];
  continuation: string | null;
}

export function usePagedList<T>(
  query: UseInfiniteQueryResult<InfiniteData<Page<T>, unknown>>,
  queryKey: QueryKey,
  subject: Subject,
  id: string,
  endText: (count: number) => string,
) {
  const queryClient = useQueryClient();
  const {
    data,
    hasNextPage,
    isFetching,
    isFetchingNextPage,
    isFetchNextPageError,
    fetchNextPage,
    error,
    errorUpdatedAt,
  } = query;

  const items = useMemo(() => data?.pages.flatMap((page) => page.items) ?? [], [data]);
  const lastPage = data?.pages.at(-1);
  const repeated = data ? continuationRepeats(lastPage?.continuation, data.pageParams) : false;

  /** Asks for the next page only when there is one and nothing is in flight or failed. */
  const loadMore = () => {
    // cancelRefetch: false makes a second call while a page is in flight a no-op.
    if (hasNextPage && !isFetching && !isFetchNextPageError)
      void fetchNextPage({ cancelRefetch: false });
  };
  const retry = () => void fetchNextPage({ cancelRefetch: false });
  const reload = () => void queryClient.resetQueries({ queryKey, exact: true });

  let footer: FooterState | null = null;
  if (data && items.length > 0) {
    if (isFetchNextPageError) {
      footer = {
        kind: 'error',
        problem: describeProblem(error, subject, id),
        since: errorUpdatedAt,
        onRetry: retry,
        onReload: reload,
      };
    } else if (isFetchingNextPage) footer = { kind: 'loading' };
    else if (hasNextPage) footer = { kind: 'more' };
    else if (repeated) {
      footer = {
        kind: 'stopped',
        text: `Loading stopped after ${items.length.toLocaleString()} items: the catalogue pointed back to a page it had already sent.`,
      };
    } else footer = { kind: 'end', text: endText(items.length) };
  }

  return { items, loadMore, reload, footer, repeated };
}
