import type { LookupRange } from '../../shared/feed-costs.ts';
import type { FeedAddress } from '../../shared/feeds.ts';
import { PLAYLIST_PAGE_SIZE } from '../../shared/whole-list.ts';
import type { PageSource } from '../pages/page-source.ts';
import { playlistDigest } from '../rendering/cached-pages.ts';

// What reading a list's feed would cost now, worked out from what the server holds without a
// lookup (feed-source.ts does the reading; this follows its steps on paper). A page held fresh
// is free, any other a lookup. A channel's feed is its first page; a playlist's is its first
// page, then for a kept tail (playlist-tail.ts) nothing or a page or two, and for one never read
// its whole chain. Its length is on its first page: with that page fresh the cost is exact,
// without it the worst case is a full playlist (spec §3.1).

/** A playlist holds at most 5,000 items (spec §3.1). */
const MAX_PLAYLIST_PAGES = Math.ceil(5_000 / PLAYLIST_PAGE_SIZE);
/** A kept tail read again (grown, changed or old): its last page or two. */
const TAIL_PAGES = 2;

export interface FeedCostParts {
  pageSource: Pick<PageSource, 'fresh'>;
  /** Whether the feed source keeps this playlist's end. */
  keepsTail(id: string): boolean;
}

export function feedCost(
  { pageSource, keepsTail }: FeedCostParts,
  { list, id }: Pick<FeedAddress, 'list' | 'id'>,
): LookupRange {
  const endpoint = list === 'channel' ? 'channel-videos' : 'playlist';
  const first = pageSource.fresh({ endpoint, id, continuation: undefined });
  const firstCost = first === undefined ? 1 : 0;
  if (list === 'channel') return { min: firstCost, max: firstCost };
  if (keepsTail(id)) return { min: firstCost, max: firstCost + TAIL_PAGES };
  if (first === undefined) return { min: 1, max: MAX_PLAYLIST_PAGES };
  // The first page is here: the length is known, and so is how much of the chain is cached.
  const digest = playlistDigest(first);
  const total = digest?.info?.totalItems;
  if (digest === null || total === undefined) return { min: 0, max: MAX_PLAYLIST_PAGES - 1 };
  const needed = Math.max(1, Math.ceil(total / PLAYLIST_PAGE_SIZE));
  let cached = 1;
  let continuation = digest.continuation;
  while (continuation !== null && cached < needed) {
    const next = pageSource.fresh({ endpoint, id, continuation });
    if (next === undefined) break;
    cached++;
    continuation = playlistDigest(next)?.continuation ?? null;
  }
  const lookups = Math.max(0, needed - cached);
  return { min: lookups, max: lookups };
}
