import { LRUCache } from 'lru-cache';
import type { ChannelVideosPage, PlaylistPage, Thumbnail } from '../../shared/catalogue-schema.ts';
import type { FeedAddress, FeedList } from '../../shared/feeds.ts';
import type { PageSource } from '../pages/page-source.ts';
import type { StoredPage } from '../pages/page-entry.ts';
import { readStored } from '../rendering/cached-pages.ts';
import type { ChannelTitles } from '../rendering/channel-titles.ts';
import { isWebUrl } from './feed-values.ts';
import {
  FEED_SIZE,
  readTail,
  type FeedProblem,
  type PageRead,
  type Tail,
} from './playlist-tail.ts';
import { publishedDate } from './published-date.ts';

// What a list's feed holds, read through the page source like every other read:
// - a channel: its newest videos, the first page of its videos (newest first, spec §3.2);
// - a playlist: its end, where the platform adds new items, the last FEED_SIZE items, most
//   recently added first (its first page holds its oldest). The first read of a long playlist
//   walks its chain once; after that its tail is kept here, and a poll costs the first page only
//   while that page stays as it was (playlist-tail.ts says what a changed one costs).

/** Playlists whose tail is kept, and items whose first date is (least recently stored out). */
export const MAX_TAILS = 1_000;
export const MAX_DATES = 50_000;

export interface FeedItem {
  videoId: string;
  title: string;
  channelId: string | null;
  channelTitle: string | null;
  thumbnail: Thumbnail | null;
  description: string | null;
  /** Position in the playlist (1-based); null for a channel's video. */
  position: number | null;
  /** From the service's relative text, else when the explorer first saw the item. */
  published: Date;
}

export interface FeedContent {
  list: FeedList;
  id: string;
  title: string;
  description: string;
  /** The channel that owns the list, when known. */
  channelId: string | null;
  channelTitle: string | null;
  image: Thumbnail | null;
  items: FeedItem[];
  /** How the items are ordered, for the feed's own description. */
  order: 'newest-first' | 'last-added-first';
}

export type FeedAnswer =
  | {
      kind: 'feed';
      content: FeedContent;
      /** Upstream lookups this read cost (a page the cache held, or one on its way, is free). */
      lookups: number;
    }
  | FeedProblem;

export interface FeedSource {
  read(address: Pick<FeedAddress, 'list' | 'id'>, client: string): Promise<FeedAnswer>;
  /** Whether this playlist's end is kept, so that a read need not walk it (feed-cost.ts). */
  keepsTail(id: string): boolean;
}

export function createFeedSource(options: {
  pageSource: Pick<PageSource, 'get'>;
  channelTitles?: Pick<ChannelTitles, 'get'>;
  now?: () => number;
}): FeedSource {
  const { pageSource, channelTitles, now = Date.now } = options;
  // Storing an entry makes it the most recent, reading it does not (`peek`): a tail counts from
  // when it last changed, a date from when it was worked out.
  const tails = new LRUCache<string, Tail>({ max: MAX_TAILS });
  const firstDates = new LRUCache<string, Date>({ max: MAX_DATES });

  /** A stable date per item: the first one worked out is kept, so a feed does not drift. */
  const dateOf = (key: string, text: string | null, fetchedAt: number): Date => {
    const known = firstDates.peek(key);
    if (known) return known;
    const date = publishedDate(text, fetchedAt) ?? new Date(fetchedAt);
    firstDates.set(key, date);
    return date;
  };

  type Read<T> = PageRead<T> | FeedProblem;
  /** What a read has cost so far. */
  type Cost = { lookups: number };

  const readPage = async <T>(
    endpoint: 'playlist' | 'channel-videos',
    id: string,
    continuation: string | undefined,
    client: string,
    cost: Cost,
  ): Promise<Read<T>> => {
    const answer = await pageSource.get({ endpoint, id, continuation }, client);
    if (answer.cache === 'miss') cost.lookups++;
    if (answer.kind === 'problem') {
      const { status, code, detail, retryAfterSeconds } = answer;
      return { kind: 'problem', status, code, detail, retryAfterSeconds };
    }
    const page = readStored<T>(answer.page as StoredPage);
    if (page === null) {
      const detail = 'The catalogue sent a page the explorer cannot read.';
      return { kind: 'problem', status: 502, code: 'upstream_bad_response', detail };
    }
    return { page, fetchedAt: now(), freshUntil: (answer.page as StoredPage).freshUntil };
  };

  async function channel(id: string, client: string): Promise<FeedAnswer> {
    const cost: Cost = { lookups: 0 };
    const read = await readPage<ChannelVideosPage>('channel-videos', id, undefined, client, cost);
    if ('kind' in read) return read;
    const name = channelTitles?.get(id) ?? null;
    return {
      kind: 'feed',
      lookups: cost.lookups,
      content: {
        list: 'channel',
        id,
        title: name ?? id,
        description: name ?? id,
        channelId: id,
        channelTitle: name,
        image: largest(read.page.items[0]?.thumbnails ?? []),
        order: 'newest-first',
        items: read.page.items.slice(0, FEED_SIZE).map((video) => ({
          videoId: video.id,
          title: video.title,
          channelId: id,
          channelTitle: name,
          thumbnail: largest(video.thumbnails),
          description: video.descriptionSnippet,
          position: null,
          published: dateOf(`v ${video.id}`, video.publishedText, read.fetchedAt),
        })),
      },
    };
  }

  async function playlist(id: string, client: string): Promise<FeedAnswer> {
    const cost: Cost = { lookups: 0 };
    const read = await readPage<PlaylistPage>('playlist', id, undefined, client, cost);
    if ('kind' in read) return read;
    const info = read.page.info;
    const known = tails.peek(id);
    const readAgain = (continuation: string | undefined) =>
      readPage<PlaylistPage>('playlist', id, continuation, client, cost);
    const walked = await readTail(read, known, readAgain, now());
    let tail: Tail;
    // A failure part way: the tail known still stands in, else the failure is the answer.
    if ('kind' in walked) {
      if (known === undefined) return walked;
      tail = known;
    } else {
      tail = walked;
      if (tail !== known) tails.set(id, tail);
    }
    const channelId = info?.channelId ?? null;
    return {
      kind: 'feed',
      lookups: cost.lookups,
      content: {
        list: 'playlist',
        id,
        title: info?.title || id,
        description: info?.description ?? '',
        channelId,
        channelTitle: info?.channelTitle ?? null,
        image: largest(info?.thumbnails ?? []),
        order: 'last-added-first',
        items: tail.items
          .slice(-FEED_SIZE)
          .reverse()
          .map((item) => ({
            videoId: item.id,
            title: item.title,
            channelId: item.channelId,
            channelTitle: item.channelTitle,
            thumbnail: largest(item.thumbnails),
            description: null,
            position: item.index,
            published: dateOf(`v ${item.id}`, item.publishedText, read.fetchedAt),
          })),
      },
    };
  }

  return {
    read: ({ list, id }, client) =>
      list === 'channel' ? channel(id, client) : playlist(id, client),
    keepsTail: (id) => tails.has(id),
  };
}

/** The largest image a feed may carry (feed-values.ts: http(s) only; the writer checks again). */
function largest(thumbnails: readonly Thumbnail[]): Thumbnail | null {
  return (
    thumbnails
      .filter((thumbnail) => isWebUrl(thumbnail.url))
      .sort((a, b) => b.width - a.width)[0] ?? null
  );
}
