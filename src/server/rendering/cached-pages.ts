import type {
  PlaylistInfo,
  PlaylistItem,
  PlaylistPage,
  Thumbnail,
} from '../../shared/catalogue-schema.ts';
import type { PageSource } from '../pages/page-source.ts';
import type { StoredPage } from '../pages/page-entry.ts';

// Reading pages the explorer already holds, for link previews: never an upstream call, never a
// wait. A playlist's item N lives on whichever page the continuation chain (spec §2.6) reaches
// it on, so finding it means following that chain from the first page through the cache, and
// counting items, since nothing promises 100 per page. Each stored page is parsed once for its
// count and continuation (kept beside it, weakly, for as long as the page lives); only the
// page holding item N is parsed again, for the item.

/** The cache-only read the previews need (page-source.ts `peek`). */
export type CachedPages = Pick<PageSource, 'peek'>;

interface PlaylistDigest {
  count: number;
  /** The page's items' durations added up (a live stream's null as nothing). */
  seconds: number;
  continuation: string | null;
  info: PlaylistInfo | undefined;
}

const digests = new WeakMap<StoredPage, PlaylistDigest>();

/**
 * A stored page's data. It passed the endpoint's schema when it arrived (upstream/client.ts),
 * so it is read as that shape; null only if the body is not JSON at all.
 */
export function readStored<T>(page: StoredPage): T | null {
  try {
    return JSON.parse(page.body.toString('utf8')) as T;
  } catch {
    return null;
  }
}

/** A playlist page's item count, continuation and (first page only) info. */
export function playlistDigest(page: StoredPage): PlaylistDigest | null {
  const known = digests.get(page);
  if (known) return known;
  const data = readStored<PlaylistPage>(page);
  if (data === null || !Array.isArray(data.items)) return null;
  let seconds = 0;
  for (const item of data.items) seconds += item.duration ?? 0;
  const digest = {
    count: data.items.length,
    seconds,
    continuation: data.continuation,
    info: data.info,
  };
  digests.set(page, digest);
  return digest;
}

interface ChainStep {
  page: StoredPage;
  digest: PlaylistDigest;
  /** Items on the pages before this one. */
  before: number;
}

/**
 * The playlist's pages the cache holds, in chain order from `first`, each with its digest.
 * Returns true once the chain's end was reached, false where it stops at a page the cache does
 * not hold (or an unreadable page, an empty one that names a next, a chain that loops).
 */
function* cachedChain(
  pages: CachedPages,
  id: string,
  first: StoredPage,
): Generator<ChainStep, boolean, undefined> {
  let page: StoredPage | undefined = first;
  let before = 0;
  // A chain that comes back on itself would otherwise be followed for ever.
  const followed = new Set<string>();
  while (page !== undefined) {
    const digest = playlistDigest(page);
    if (digest === null) return false;
    yield { page, digest, before };
    before += digest.count;
    const next = digest.continuation;
    if (next === null) return true;
    if (digest.count === 0 || followed.has(next)) return false;
    followed.add(next);
    page = pages.peek({ endpoint: 'playlist', id, continuation: next });
  }
  return false;
}

/**
 * The playlist's item at `position` (1-based, counted along the chain), when every page up to
 * the one holding it is in the cache; null otherwise.
 */
export function cachedPlaylistItem(
  pages: CachedPages,
  id: string,
  first: StoredPage,
  position: number,
): PlaylistItem | null {
  for (const { page, digest, before } of cachedChain(pages, id, first)) {
    if (position <= before + digest.count)
      return readStored<PlaylistPage>(page)?.items[position - before - 1] ?? null;
  }
  return null;
}

/**
 * The playlist's total duration in seconds, when every one of its pages is in the cache (live
 * streams, whose duration is null, count as nothing); null otherwise. From the pages' digests.
 */
export function cachedPlaylistDuration(
  pages: CachedPages,
  id: string,
  first: StoredPage,
): number | null {
  const chain = cachedChain(pages, id, first);
  let seconds = 0;
  for (let step = chain.next(); ; step = chain.next()) {
    if (step.done) return step.value ? seconds : null;
    seconds += step.value.digest.seconds;
  }
}

/** The largest of an item's thumbnails (spec §2.5 lists several sizes), or null. */
export function largestThumbnail(thumbnails: readonly Thumbnail[] | undefined): Thumbnail | null {
  let best: Thumbnail | null = null;
  for (const thumbnail of thumbnails ?? []) {
    if (best === null || thumbnail.width * thumbnail.height > best.width * best.height)
      best = thumbnail;
  }
  return best;
}

/** The largest thumbnail of a channel page's first item (a video or a playlist), or null. */
export function firstItemThumbnail(page: StoredPage): Thumbnail | null {
  const data = readStored<{ items?: Array<{ thumbnails?: Thumbnail[] }> }>(page);
  return largestThumbnail(data?.items?.[0]?.thumbnails);
}
