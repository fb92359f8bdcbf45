import { hash } from 'node:crypto';
import type { PlaylistItem, PlaylistPage } from '../../shared/catalogue-schema.ts';
import type { ProblemCode } from '../../shared/problem-codes.ts';

// A playlist's tail: its last FEED_SIZE items, where the platform adds new ones (spec §3.1),
// kept between polls so that a poll costs the first page alone. The first page decides what is
// read again: unchanged and younger than TAIL_MAX_AGE_MS, nothing; grown with the same first
// page, from the last page known on; changed or too old, the pages holding the tail; shrunk or
// unknown, the chain from the start. An edit at the very end with the count unchanged shows in
// no first page, so the tail's age bounds how long a feed lags it (docs/following.md). A tail
// read from cached pages older than the new first page is read again at the next poll.

/** Items a feed holds. */
export const FEED_SIZE = 50;
/** A playlist holds at most 5,000 items (spec §3.1): 50 pages, with room for a short page. */
const MAX_PAGES = 60;
/** How long a kept tail is trusted on an unchanged first page alone. */
export const TAIL_MAX_AGE_MS = 60 * 60_000;

export interface FeedProblem {
  kind: 'problem';
  status: number;
  code: ProblemCode;
  detail: string;
  retryAfterSeconds?: number;
}

/** A page as the page source gave it: its data, and until when the cache holds it fresh. */
export interface PageRead<T> {
  page: T;
  fetchedAt: number;
  freshUntil: number;
}

/** Reads one page of the playlist (undefined: its first page). */
export type ReadPlaylistPage = (
  continuation: string | undefined,
) => Promise<PageRead<PlaylistPage> | FeedProblem>;

export interface Tail {
  /** The first page's `totalItems` when the tail was read. */
  totalItems: number;
  /** The first page's items (IDs at positions) that the tail is known to go with; null: none. */
  firstPage: string | null;
  /** The continuation of the last page (undefined: the first page is the last). */
  lastParam: string | undefined;
  /** The continuation of the first page holding the last FEED_SIZE items (undefined: the first). */
  fromParam: string | undefined;
  items: PlaylistItem[];
  readAt: number;
}

/** The first page's content as far as the tail depends on it: which item is at which position. */
export const firstPageDigest = (page: PlaylistPage): string =>
  hash('sha1', page.items.map((item) => `${item.index} ${item.id}`).join('\n'), 'base64url');

type Mode = 'kept' | 'grown' | 'again' | 'start';

function modeOf(known: Tail | undefined, first: PlaylistPage, digest: string, now: number): Mode {
  const total = first.info?.totalItems;
  if (known === undefined || total === undefined || total < known.totalItems) return 'start';
  const sameFirst = known.firstPage === digest;
  if (sameFirst && total === known.totalItems && now - known.readAt < TAIL_MAX_AGE_MS)
    return 'kept';
  return sameFirst && total > known.totalItems ? 'grown' : 'again';
}

/** A page read on the way, for where the tail begins next time. */
interface Step {
  param: string | undefined;
  count: number;
}

/**
 * The playlist's tail for this poll: the kept one, or one read as above. A failure part way is
 * the answer (the caller decides whether the kept tail stands in).
 */
export async function readTail(
  first: PageRead<PlaylistPage>,
  known: Tail | undefined,
  readPage: ReadPlaylistPage,
  now: number,
): Promise<Tail | FeedProblem> {
  const digest = firstPageDigest(first.page);
  const mode = modeOf(known, first.page, digest, now);
  if (mode === 'kept') return known!;
  const walked = await walk(first, mode === 'start' ? undefined : known, mode, readPage);
  // A continuation the upstream no longer takes (spec §2.6): the chain from the start.
  if ('kind' in walked && walked.status === 400 && mode !== 'start')
    return readTail(first, undefined, readPage, now);
  if ('kind' in walked) return walked;
  return {
    totalItems: first.page.info?.totalItems ?? walked.items.length,
    firstPage: walked.settled ? digest : null,
    lastParam: walked.lastParam,
    fromParam: walked.fromParam,
    items: walked.items,
    readAt: now,
  };
}

async function walk(
  first: PageRead<PlaylistPage>,
  known: Tail | undefined,
  mode: Exclude<Mode, 'kept'>,
  readPage: ReadPlaylistPage,
): Promise<
  { items: PlaylistItem[]; lastParam?: string; fromParam?: string; settled: boolean } | FeedProblem
> {
  const begin =
    mode === 'grown' ? known!.lastParam : mode === 'again' ? known!.fromParam : undefined;
  let items = mode === 'grown' ? [...known!.items] : [];
  const steps: Step[] = [];
  let settled = true;
  let next: string | null | undefined = begin;
  let lastParam: string | undefined;
  for (let pages = 0; next !== null && pages < MAX_PAGES; pages++) {
    let read: PageRead<PlaylistPage> | FeedProblem;
    if (next === undefined) read = first;
    else {
      read = await readPage(next);
      if ('kind' in read) return read;
      // A page the cache held from before the first page was fetched may not match it.
      if (read.freshUntil < first.freshUntil) settled = false;
    }
    lastParam = next;
    steps.push({ param: next, count: read.page.items.length });
    items = merge(items, read.page.items);
    next = read.page.continuation;
  }
  return { items, lastParam, fromParam: fromOf(steps, known?.fromParam, mode), settled };
}

/** Where the last FEED_SIZE items begin, from the pages just read (and the tail known). */
function fromOf(steps: Step[], knownFrom: string | undefined, mode: Mode): string | undefined {
  let count = 0;
  for (let i = steps.length - 1; i >= 0; i--) {
    count += steps[i]!.count;
    if (count >= FEED_SIZE) return steps[i]!.param;
  }
  // Fewer than FEED_SIZE items in the pages read: a grown tail still begins where it did.
  return mode === 'grown' ? knownFrom : steps[0]?.param;
}

/** `kept` with `page`'s items in place (by position), only the last FEED_SIZE kept. */
function merge(kept: PlaylistItem[], page: readonly PlaylistItem[]): PlaylistItem[] {
  const byIndex = new Map(kept.map((item) => [item.index, item]));
  for (const item of page) byIndex.set(item.index, item);
  return [...byIndex.values()].sort((a, b) => a.index - b.index).slice(-FEED_SIZE);
}
