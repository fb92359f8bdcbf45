import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { EndpointName, EndpointPage } from '../../shared/endpoints.ts';
import { checkedPage, fetchPageBody } from './api-client.ts';
import { pagesOptions } from './catalogue-queries.ts';
import { nextContinuation } from './continuation-guard.ts';
import { withItemsLetGo } from './let-go-page.ts';

// Following a list's continuations past the pages it holds (spec §2.6), for a reader who jumps
// far ahead or a deep link. fetchNextPage would cost every page a state update and a render
// before the next request leaves; here each page is asked for as soon as the previous one names
// it (its check overlapping the round trip), and pages reach the query cache in batches, at most
// one write per `commitEveryMs`, so a long chain renders a handful of times. A failed page is not
// retried here: the caller asks the query for it, which owns the retry policy and error state.

export type ChainOutcome =
  /** `enough` said so. */
  | 'enough'
  /** The list has no further page. */
  | 'end'
  | 'failed'
  /** Aborted, or the cached list changed under the loop (reset, refetched): nothing written. */
  | 'stopped';

export interface ChainOptions<E extends EndpointName> {
  /** Asked after each page (and before the first request): stop here? */
  enough: (loaded: number, newest: EndpointPage<E> | undefined) => boolean;
  signal: AbortSignal;
  commitEveryMs?: number;
  /**
   * The pages to let go of before each write (page-trim.ts `farPages`): a chain that runs for
   * as long as a reader flings through a long list would otherwise hold every page it read.
   */
  letGo?: (pages: readonly EndpointPage<E>[]) => ReadonlySet<number>;
}

/**
 * Each write re-renders the view at once (the query's store is read through
 * useSyncExternalStore, which React never defers), and on a phone a long list's render is not
 * cheap: the next request leaves before it, but the render still holds the main thread when the
 * answer comes. This pace keeps the progress moving; writing more often slowed a long chain.
 */
const COMMIT_EVERY_MS = 250;

type Pages<E extends EndpointName> = InfiniteData<EndpointPage<E>, string | null>;

export async function followChain<E extends EndpointName>(
  queryClient: QueryClient,
  endpoint: E,
  id: string,
  { enough, signal, commitEveryMs = COMMIT_EVERY_MS, letGo }: ChainOptions<E>,
): Promise<ChainOutcome> {
  const { queryKey } = pagesOptions(endpoint, id);
  let written = queryClient.getQueryData<Pages<E>>(queryKey);
  if (written === undefined) return 'stopped';
  const pages = [...written.pages];
  const pageParams = [...written.pageParams];
  let loaded = pages.reduce((sum, page) => sum + page.items.length, 0);
  let committedPages = pages.length;
  let lastCommit = performance.now();

  /** Writes the pages read so far, unless someone else changed the list meanwhile. */
  const commit = (): boolean => {
    if (queryClient.getQueryData(queryKey) !== written) return false;
    if (pages.length === committedPages) return true;
    for (const index of letGo?.(pages) ?? []) pages[index] = withItemsLetGo(pages[index]!);
    queryClient.setQueryData<Pages<E>>(queryKey, {
      pages: [...pages],
      pageParams: [...pageParams],
    });
    // The cache holds its own copy (structural sharing), which is what the next check meets.
    written = queryClient.getQueryData<Pages<E>>(queryKey);
    committedPages = pages.length;
    lastCommit = performance.now();
    return true;
  };

  let next = nextContinuation(pages.at(-1)?.continuation ?? null, pageParams);
  let newest: EndpointPage<E> | undefined;
  // A request that left before a write or a check (below); aborted if the chain stops first.
  const own = new AbortController();
  const requests = AbortSignal.any([signal, own.signal]);
  let ahead: Promise<unknown> | undefined;
  const dropAhead = () => {
    own.abort();
    void ahead?.catch(() => undefined);
  };
  const stopped = (): ChainOutcome => {
    dropAhead();
    return 'stopped';
  };
  /**
   * The page after `raw`, to ask for before `raw` is checked: its continuation when it names a
   * new one and `raw` is not the last page wanted. Read from the unchecked body only to send
   * that request; the check below decides what is kept.
   */
  const following = (raw: unknown, param: string): string | undefined => {
    if (typeof raw !== 'object' || raw === null) return undefined;
    const { items, continuation } = raw as { items?: unknown; continuation?: unknown };
    if (!Array.isArray(items) || typeof continuation !== 'string') return undefined;
    try {
      if (enough(loaded + items.length, raw as EndpointPage<E>)) return undefined;
    } catch {
      return undefined;
    }
    return nextContinuation(continuation, [...pageParams, param]);
  };
  for (;;) {
    if (signal.aborted) return stopped();
    // Someone else wrote the list (a whole-list walk, a reset): its pages, not ours, and no
    // further lookup for a chain that is no longer the list's.
    if (queryClient.getQueryData(queryKey) !== written) return stopped();
    if (enough(loaded, newest)) {
      dropAhead();
      return commit() ? 'enough' : stopped();
    }
    if (next === undefined) return commit() ? 'end' : stopped();
    ahead ??= fetchPageBody(endpoint, id, next, requests);
    // The write comes after the request left, so the render it causes overlaps the round trip.
    if (performance.now() - lastCommit >= commitEveryMs && !commit()) return stopped();
    let raw: unknown;
    try {
      raw = await ahead;
    } catch {
      if (signal.aborted) return 'stopped';
      return commit() ? 'failed' : 'stopped';
    } finally {
      ahead = undefined;
    }
    // The next request leaves before this page is checked: the check overlaps its round trip.
    // Not if the list was written by someone else while this page was on its way (a whole-list
    // walk that has read it all): the chain is no longer the list's, and the request would be a
    // lookup spent on a page the list already holds.
    const ours = !signal.aborted && queryClient.getQueryData(queryKey) === written;
    const then = ours ? following(raw, next) : undefined;
    if (then !== undefined) ahead = fetchPageBody(endpoint, id, then, requests);
    try {
      newest = checkedPage(endpoint, raw);
    } catch {
      dropAhead();
      return commit() ? 'failed' : 'stopped';
    }
    pages.push(newest);
    pageParams.push(next);
    loaded += newest.items.length;
    // The same body, read the same way: `next` is the page already asked for, if one was.
    next = nextContinuation(newest.continuation, pageParams);
  }
}
