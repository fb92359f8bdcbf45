import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
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
  /** Items loaded so far. */
  count: number;
  /**
   * The list's length as far as it is known: a playlist's stated `totalItems` while pages remain
   * (the rows not yet loaded show as placeholders, so the scrollbar spans the whole list), what
   * has arrived once the last page has; a channel's lists state none, so what is loaded.
   */
  length: number;
  hasNextPage: boolean;
  /** The first page failed: what to say, since when (for a Retry-After countdown). */
  problem: ProblemText | null;
  problemSince: number;
  retry: () => void;
  /** Drops every page and starts the list over. */
  reload: () => void;
  /**
   * Loads pages in order until `count` items are in (the window list says how many it needs),
   * one page after another with no render in between; `visible` is the end of the rows on
   * screen, to tell a reader waiting on placeholders from a prefetch.
   */
  requestRows: (count: number, visible: number) => void;
  /** A reader is looking at placeholders: the pages up to them are loading (or failed). */
  waiting: { upTo: number; failed: boolean } | null;
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
  /** The list's length as its first page states it (a playlist's `totalItems`), if it does. */
  statedLength?: (first: EndpointPage<E>) => number | undefined,
): PagedList<E> {
  const queryClient = useQueryClient();
  const options = pagesOptions(endpoint, id);
  // Before the query: whether the pages were cached when the view opened decides the scroll.
  const restoreY = useListEntryScroll(options.queryKey);
  const {
    data,
    hasNextPage,
    isError,
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

  const stated = data?.pages[0] && statedLength ? statedLength(data.pages[0]) : undefined;
  const length =
    stated !== undefined && hasNextPage ? Math.max(stated, items.length) : items.length;

  // One loading loop at a time; its goal follows the window (a reader who scrolls back up
  // stops it), and each page is asked for as soon as the previous one arrives.
  const goal = useRef(0);
  const looping = useRef(false);
  const latest = useRef({ loaded: 0, hasNextPage: false, failed: false });
  const failedNow = isFetchNextPageError || (isError && !data);
  useLayoutEffect(() => {
    latest.current = { loaded: items.length, hasNextPage, failed: failedNow };
  });
  const [waitingFor, setWaitingFor] = useState<number | null>(null);
  const loadThrough = useCallback(() => {
    if (looping.current) return;
    looping.current = true;
    void (async () => {
      try {
        let { loaded, hasNextPage: more, failed } = latest.current;
        while (more && !failed && loaded < goal.current) {
          // cancelRefetch: false joins a request already in flight rather than repeating it.
          const result = await fetchNextPage({ cancelRefetch: false });
          loaded = itemsOf(result.data?.pages ?? []).length;
          more = result.hasNextPage;
          failed = result.isFetchNextPageError;
        }
      } finally {
        looping.current = false;
      }
    })();
  }, [fetchNextPage]);
  const requestRows = useCallback(
    (count: number, visible: number) => {
      goal.current = count;
      setWaitingFor(visible > latest.current.loaded ? visible : null);
      loadThrough();
    },
    [loadThrough],
  );
  const waiting =
    waitingFor !== null && waitingFor > items.length && hasNextPage
      ? { upTo: Math.min(waitingFor, length), failed: isFetchNextPageError }
      : null;

  const retryNext = () =>
    void fetchNextPage({ cancelRefetch: false }).then((result) => {
      // Back to the loop, if the window still needs more.
      if (!result.isFetchNextPageError) loadThrough();
    });
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
    length,
    hasNextPage,
    problem: isError && !data ? describeProblem(error, subject, id) : null,
    problemSince: errorUpdatedAt,
    retry: () => void refetch(),
    reload,
    requestRows,
    waiting,
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
