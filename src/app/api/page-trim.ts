import type { InfiniteData, QueryClient } from '@tanstack/react-query';
import type { EndpointName, EndpointPage } from '../../shared/endpoints.ts';
import { fetchPage } from './api-client.ts';
import { pagesOptions } from './catalogue-queries.ts';
import { isLetGo, withItemsLetGo } from './let-go-page.ts';

// A long list's pages far from the window are let go, so that the browser's memory does not
// grow with the depth a reader scrolls to; each is read again (the server's cache answers it)
// when the window comes back near it. A page let go keeps its place in the chain: its
// continuation (the query's page parameter, spec §2.6), everything but its items, and their
// count, as an array of that length with nothing in it. The list's positions, its length and
// the scrollbar do not change; its rows show as placeholders until the page is back.
//

/** Lists holding no more rows than this are never trimmed: every list up to the platform's
 * 5,000-item playlists and the demo's 10,000-video channel stays whole in the browser, with its
 * whole-list answers (sort, charts) worked out from it. */
export const HOLD_ROWS = 10_000;
/**
 * A list longer than HOLD_ROWS cannot be whole anyway, so it holds no more than a reading band
 * around the window: this many rows at most, the farthest pages going until KEEP_ROWS are left.
 * The band is about what a list holds at row 5,000, so the memory a reader's tab takes at row
 * 100,000 is the same as there, whatever the list's length.
 */
export const DEEP_HOLD_ROWS = 5_000;
const KEEP_ROWS = 4_000;
/** Rows either side of the window never let go, and read again when they were. */
const NEAR_ROWS = 300;

type Pages<E extends EndpointName> = InfiniteData<EndpointPage<E>, string | null>;

interface Span {
  page: number;
  start: number;
  end: number;
}

function spans(pages: readonly { items: readonly unknown[] }[]): Span[] {
  let start = 0;
  return pages.map((page, index) => {
    const span = { page: index, start, end: start + page.items.length };
    start = span.end;
    return span;
  });
}

/** Rows from the span to the window's rows [from, to): 0 when they overlap. */
const distance = (span: Span, from: number, to: number) =>
  span.end <= from ? from - span.end : span.start >= to ? span.start - to : 0;

/**
 * The pages to let go of, farthest first from the window's rows [from, to), while a list of
 * more than HOLD_ROWS rows holds more than DEEP_HOLD_ROWS of them, down to KEEP_ROWS. The last
 * rows loaded count as near too: a deep link or End loads pages up to where the window is about
 * to go, before the window has gone there. Empty when none need go.
 */
export function farPages(
  pages: readonly { items: readonly unknown[] }[],
  from: number,
  to: number,
): Set<number> {
  const going = new Set<number>();
  const all = spans(pages);
  const held = all.filter((span) => !isLetGo(pages[span.page]!));
  let rows = held.reduce((sum, span) => sum + span.end - span.start, 0);
  const total = all.at(-1)?.end ?? 0;
  if (total <= HOLD_ROWS || rows <= DEEP_HOLD_ROWS) return going;
  const farthest = held
    .map((span) => ({
      span,
      away: Math.min(distance(span, from, to), distance(span, total - NEAR_ROWS, total)),
    }))
    .filter(({ away }) => away > NEAR_ROWS)
    .sort((a, b) => b.away - a.away);
  for (const { span } of farthest) {
    if (rows <= KEEP_ROWS) break;
    going.add(span.page);
    rows -= span.end - span.start;
  }
  return going;
}

/**
 * Lets go of the far pages (farPages) of the cached list. Returns whether it changed it. A chain
 * that is loading the list lets go of them itself, as it writes (page-chain.ts).
 */
export function letGoFarPages<E extends EndpointName>(
  queryClient: QueryClient,
  endpoint: E,
  id: string,
  from: number,
  to: number,
): boolean {
  const { queryKey } = pagesOptions(endpoint, id);
  const data = queryClient.getQueryData<Pages<E>>(queryKey);
  if (!data) return false;
  const going = farPages(data.pages, from, to);
  if (going.size === 0) return false;
  queryClient.setQueryData<Pages<E>>(queryKey, {
    pages: data.pages.map((page, index) => (going.has(index) ? withItemsLetGo(page) : page)),
    pageParams: data.pageParams,
  });
  return true;
}

/**
 * Reads again the pages let go that lie within NEAR_ROWS of the window's rows [from, to), and
 * puts them back in the cached list, unless the list changed meanwhile. A page that comes back
 * with another number of items (the list changed upstream) would move every later row: the list
 * is then reset and read from its start, as a reload would.
 */
export async function readBackNearPages<E extends EndpointName>(
  queryClient: QueryClient,
  endpoint: E,
  id: string,
  from: number,
  to: number,
  signal: AbortSignal,
  /** Asked before the pages read are written: no, while a chain is writing the list. */
  mayWrite: () => boolean,
): Promise<void> {
  const { queryKey } = pagesOptions(endpoint, id);
  const data = queryClient.getQueryData<Pages<E>>(queryKey);
  if (!data) return;
  const wanted = spans(data.pages).filter(
    (span) => isLetGo(data.pages[span.page]!) && distance(span, from, to) <= NEAR_ROWS,
  );
  if (wanted.length === 0) return;
  const pages = await Promise.all(
    wanted.map((span) => fetchPage(endpoint, id, data.pageParams[span.page] ?? null, signal)),
  );
  const now = queryClient.getQueryData<Pages<E>>(queryKey);
  if (signal.aborted || !mayWrite() || !now || now.pageParams.length < data.pageParams.length)
    return;
  if (wanted.some((span, i) => pages[i]!.items.length !== span.end - span.start)) {
    await queryClient.resetQueries({ queryKey, exact: true });
    return;
  }
  const back = new Map<number, EndpointPage<E>>(wanted.map((span, i) => [span.page, pages[i]!]));
  queryClient.setQueryData<Pages<E>>(queryKey, {
    pages: now.pages.map((page, index) => back.get(index) ?? page),
    pageParams: now.pageParams,
  });
}
