import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { EndpointName, EndpointPage } from '../../shared/endpoints.ts';
import { notePages, pagesOptions } from '../api/catalogue-queries.ts';
import { whenIdle } from '../lib/when-idle.ts';
import { followChain } from '../api/page-chain.ts';
import { continuationRepeats } from '../api/continuation-guard.ts';
import { isLetGo } from '../api/let-go-page.ts';
import { farPages, letGoFarPages, readBackNearPages } from '../api/page-trim.ts';
import { backoffMs } from '../../shared/backoff.ts';
import { ApiError } from '../api/api-error.ts';
import { useTranslation } from '../i18n/use-translation.ts';
import { describeProblem, type ProblemText } from '../lib/problem-text.ts';
import { useListEntryScroll } from './use-entry-scroll.ts';

// What every endless list derives from its lookup's infinite query: the items in order, the
// first page's problem, whether to ask for the next page, which footer to show, and where the
// window goes when the view opens.

/** The row after the last item: loading more, a failed page, a chain that looped, or the end. */
export type FooterState =
  | { kind: 'more' }
  | { kind: 'loading' }
  | {
      kind: 'error';
      problem: ProblemText;
      since: number;
      onRetry: () => void;
      onReload: () => void;
    }
  | { kind: 'stopped'; text: string }
  | { kind: 'end'; text: string };

export type PageItem<E extends EndpointName> = EndpointPage<E>['items'][number];

/** What the paged-list component shows; the views read the rest of `usePagedList`'s answer. */
export interface PagedListState {
  /** The first page has arrived. */
  loaded: boolean;
  /** Items loaded so far. */
  count: number;
  /** Whether the item at a position is held (loaded, and not let go since). */
  holds: (position: number) => boolean;
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
  /** Every position loaded so far; undefined where the page was let go (page-trim.ts). */
  items: ReadonlyArray<PageItem<E> | undefined>;
  /** The last request for the list failed (its first page or a later one). */
  isError: boolean;
  /**
   * Some of a long list's pages far from the window were let go (page-trim.ts): their rows are
   * placeholders until the window comes back, and the list is not whole in the browser.
   */
  trimmed: boolean;
  /** Loads pages in order until one satisfies `found` (a deep link's item), or the list ends. */
  requestUntil: (found: (page: EndpointPage<E>) => boolean) => void;
}

/** The window's rows above the last one on screen, as far as letting pages go is concerned. */
const BACK_ROWS = 60;

export function usePagedList<E extends EndpointName>(
  endpoint: E,
  id: string,
  /** The end line, in the reader's language, for a list of `count` items. */
  endText: (count: number) => string,
  /** The list's length as its first page states it (a playlist's `totalItems`), if it does. */
  statedLength?: (first: EndpointPage<E>) => number | undefined,
): PagedList<E> {
  const queryClient = useQueryClient();
  const words = useTranslation();
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
  // the server alike; each page once, when the main thread is idle (a write to storage). Not
  // cancelled by a newer render or by leaving: learning from a page twice is a no-op.
  useEffect(() => {
    if (data) whenIdle(() => notePages(endpoint, data.pages));
  }, [endpoint, data]);
  const subject = endpoint === 'playlist' ? 'playlist' : 'channel';
  const lastPage = data?.pages.at(-1);
  const repeated = data ? continuationRepeats(lastPage?.continuation, data.pageParams) : false;

  const stated = data?.pages[0] && statedLength ? statedLength(data.pages[0]) : undefined;
  const length =
    stated !== undefined && hasNextPage ? Math.max(stated, items.length) : items.length;

  // One loading loop at a time, following the continuations itself and writing pages to the
  // cache in batches (page-chain.ts); its goal follows the window (a reader who scrolls back up
  // stops it) and a deep link can add a page it must reach.
  const goal = useRef(0);
  const until = useRef<((page: EndpointPage<E>) => boolean) | null>(null);
  const loop = useRef<AbortController | null>(null);
  const [chaining, setChaining] = useState(false);
  useEffect(() => () => loop.current?.abort(), []);
  const latest = useRef({ loaded: 0, hasNextPage: false, failed: false });
  const failedNow = isFetchNextPageError || (isError && !data);
  useLayoutEffect(() => {
    latest.current = { loaded: items.length, hasNextPage, failed: failedNow };
  });
  const [waitingFor, setWaitingFor] = useState<number | null>(null);
  // Memory that does not grow with depth (page-trim.ts): while no chain is writing the list,
  // pages near the window that were let go are read back, and far ones let go; a chain lets go
  // of far ones itself as it writes.
  // Unknown until the window list first says where it is (a deep link loads before it shows).
  const shown = useRef<{ from: number; to: number } | null>(null);
  const readingBack = useRef<AbortController | null>(null);
  // A read-back that failed is tried again while the window stays, so that a reader at rest
  // does not keep placeholders for as long as they do not scroll.
  const readBackFailures = useRef(0);
  const readBackRetry = useRef<number | undefined>(undefined);
  useEffect(
    () => () => {
      readingBack.current?.abort();
      window.clearTimeout(readBackRetry.current);
    },
    [],
  );
  const tend = useCallback(
    function tendNow() {
      if (loop.current !== null || readingBack.current !== null) return;
      window.clearTimeout(readBackRetry.current);
      // Unknown, no row is near the window: only the last rows loaded are kept.
      const started = shown.current;
      const { from, to } = started ?? { from: -Infinity, to: -Infinity };
      // Both, every time: a window that lands far from the rows held (Home after End) finds
      // more rows held than the band allows, and its own pages must still be read back, though
      // the window may not move again to ask.
      letGoFarPages(queryClient, endpoint, id, from, to);
      const controller = new AbortController();
      readingBack.current = controller;
      let retryAfterMs = 0;
      void readBackNearPages(
        queryClient,
        endpoint,
        id,
        from,
        to,
        controller.signal,
        () => loop.current === null,
      )
        .then(
          () => {
            readBackFailures.current = 0;
            retryAfterMs = 0;
          },
          (error: unknown) => {
            readBackFailures.current++;
            if (error instanceof ApiError && error.retryAfter !== null)
              retryAfterMs = error.retryAfter * 1000;
          },
        )
        .finally(() => {
          if (readingBack.current !== controller) return;
          readingBack.current = null;
          // The window went on while these pages were read (a Home key's scroll, a fling): the
          // pages near where it is now, unless it is where it was.
          if (shown.current !== started) tendNow();
          else if (readBackFailures.current > 0)
            readBackRetry.current = window.setTimeout(
              tendNow,
              Math.max(
                retryAfterMs,
                backoffMs(readBackFailures.current, { firstMs: 500, maxMs: 8000 }),
              ),
            );
        });
    },
    [queryClient, endpoint, id],
  );
  const loadThrough = useCallback(() => {
    const { hasNextPage: more, failed } = latest.current;
    if (loop.current !== null || !more || failed) return;
    const controller = new AbortController();
    loop.current = controller;
    setChaining(true);
    void followChain(queryClient, endpoint, id, {
      signal: controller.signal,
      letGo: (pages) => {
        const { from, to } = shown.current ?? { from: -Infinity, to: -Infinity };
        return farPages(pages, from, to);
      },
      enough: (loaded, newest) => {
        if (until.current !== null && newest !== undefined && until.current(newest)) {
          until.current = null;
        }
        return loaded >= goal.current && until.current === null;
      },
    }).then((outcome) => {
      if (loop.current !== controller) return;
      loop.current = null;
      setChaining(false);
      tend();
      // The page that failed, asked for again through the query: its retries, and the error
      // the footer shows if it fails for good.
      if (outcome === 'failed') void fetchNextPage({ cancelRefetch: false });
    });
  }, [queryClient, endpoint, id, fetchNextPage, tend]);
  const requestRows = useCallback(
    (count: number, visible: number) => {
      goal.current = count;
      shown.current = { from: Math.max(0, visible - BACK_ROWS), to: visible };
      setWaitingFor(visible > latest.current.loaded ? visible : null);
      loadThrough();
      tend();
    },
    [loadThrough, tend],
  );
  const requestUntil = useCallback(
    (found: (page: EndpointPage<E>) => boolean) => {
      until.current = found;
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
      // Back to the loop, if the window (or a deep link) still needs more.
      if (!result.isFetchNextPageError) loadThrough();
    });
  const reload = () => void queryClient.resetQueries({ queryKey: options.queryKey, exact: true });

  let footer: FooterState | null = null;
  if (data && items.length > 0) {
    if (isFetchNextPageError) {
      footer = {
        kind: 'error',
        problem: describeProblem(error, subject, id, words),
        since: errorUpdatedAt,
        onRetry: retryNext,
        onReload: reload,
      };
    } else if (isFetchingNextPage || chaining) footer = { kind: 'loading' };
    else if (hasNextPage) footer = { kind: 'more' };
    else if (repeated) {
      footer = {
        kind: 'stopped',
        text: words.t('list.footer.stopped', { count: items.length }),
      };
    } else footer = { kind: 'end', text: endText(items.length) };
  }

  return {
    loaded: data !== undefined,
    count: items.length,
    holds: (position) => items[position] !== undefined,
    trimmed: data?.pages.some(isLetGo) ?? false,
    length,
    hasNextPage,
    problem: isError && !data ? describeProblem(error, subject, id, words) : null,
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
    requestUntil,
  };
}

function itemsOf<E extends EndpointName>(
  pages: readonly EndpointPage<E>[],
): Array<PageItem<E> | undefined> {
  const items: Array<PageItem<E> | undefined> = [];
  // Not flatMap: it skips the holes of a page let go, and every later position would move up.
  for (const page of pages) for (let i = 0; i < page.items.length; i++) items.push(page.items[i]);
  return items;
}
