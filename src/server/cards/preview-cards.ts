import { hash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type {
  ChannelPlaylistsPage,
  ChannelVideosPage,
  PlaylistPage,
  Thumbnail,
} from '../../shared/catalogue-schema.ts';
import { listForUrl, matchAppRoute, readIndex, type ListLookup } from '../../shared/app-routes.ts';
import type { PageSource } from '../pages/page-source.ts';
import type { StoredPage } from '../pages/page-entry.ts';
import { previewFirstPage } from '../pages/preview-first-page.ts';
import type { ChannelTitles } from '../rendering/channel-titles.ts';
import {
  cachedPlaylistDuration,
  cachedPlaylistItem,
  playlistDigest,
  readStored,
} from '../rendering/cached-pages.ts';
import type { ClientRateLimit } from '../quota/client-rate-limit.ts';
import type { I18n } from '@lingui/core';
import { translationsFor } from '../rendering/translations.ts';
import { catalogLocaleOf, DEFAULT_LOCALE, LANGUAGE_PARAM } from '../../shared/locales.ts';
import { THUMBNAIL_PREFIX, type ThumbnailProxy } from '../upstream/thumbnail-proxy.ts';
import { CARDS_PREFIX, HOME_CARD } from './card-address.ts';
import type { CardStore } from './card-store.ts';
import type { CardContent } from './card-image.ts';

// Preview cards: the image a shared link unfurls with, one per view (`/cards<view path>.png`,
// `?index=N` for a playlist's item, `/cards/home.png`). The words come from what a link preview
// reads, so a card costs at most the one lookup a preview may make; a playlist's total duration
// shows only once every page is cached. The real service's absolute thumbnail URLs are not
// fetched; their tiles are left plain. Drawn cards are kept, in memory and in the card store the
// composition root hands in, under a key made of what they show, so a changed list gets a new
// card and an unchanged one is drawn once.

export type CardAnswer =
  | { kind: 'card'; png: Buffer; etag: string }
  | { kind: 'not-found' }
  | { kind: 'unavailable'; retryAfterSeconds: number | undefined }
  /** The client has drawn its share of new cards for now (kept ones stay free). */
  | { kind: 'limited'; retryAfterSeconds: number };

export interface PreviewCards {
  /** The card for `/cards…` (the request's path and query). */
  card(pathname: string, search: URLSearchParams, client: string): Promise<CardAnswer>;
}

export interface PreviewCardOptions {
  pageSource: Pick<PageSource, 'peek' | 'get'>;
  channelTitles?: Pick<ChannelTitles, 'get'>;
  thumbnails: Pick<ThumbnailProxy, 'fetch'> | null;
  /** Where cards drawn here are kept for other replicas, and theirs found (card-store.ts). */
  store: CardStore;
  /**
   * Each client's allowance of new cards (a card is a render: the composition root passes the
   * render allowance); cards kept here or by another replica are free.
   */
  drawLimit: ClientRateLimit;
  /** Bytes of drawn cards kept. */
  maxBytes?: number;
}

/** What a card shows, and the thumbnails to fetch for it. */
interface Plan {
  content: Omit<CardContent, 'images'>;
  thumbnails: Array<Thumbnail | null>;
}

/** A picture near `width` wide: big enough to fill its tile, no bigger. */
function pictureFor(thumbnails: readonly Thumbnail[] | undefined, width: number): Thumbnail | null {
  const sorted = [...(thumbnails ?? [])].sort((a, b) => a.width - b.width);
  return sorted.find((thumbnail) => thumbnail.width >= width) ?? sorted.at(-1) ?? null;
}

/** Seconds as "2,737 h 24 min" or "12 min", in the card's language. */
function totalTime(i18n: I18n, seconds: number): string {
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.round((seconds % 3600) / 60);
  return hours > 0
    ? i18n._('card.hoursMinutes', { hours, minutes })
    : i18n._('card.minutes', { minutes });
}

/** Drawn cards kept in memory at most, by default, in bytes of PNG. */
export const CARDS_MAX_BYTES = 16 * 2 ** 20;

export function createPreviewCards(options: PreviewCardOptions): PreviewCards {
  const {
    pageSource,
    channelTitles,
    thumbnails,
    store,
    drawLimit,
    maxBytes = CARDS_MAX_BYTES,
  } = options;
  type Drawn = { png: Buffer; etag: string };
  // Least recently used out past `maxBytes` of PNG; a card larger than that is not kept at all
  // (lru-cache wants sizes of at least 1).
  const kept = new LRUCache<string, Drawn>({
    maxSize: maxBytes,
    sizeCalculation: (card) => Math.max(1, card.png.length),
  });
  // Cards on their way, by hand rather than with lru-cache's `fetchMethod`, which would merge
  // requests before the shared store is asked and before each client's allowance is taken (a
  // refusal is an answer for that client, not a card); here only the drawing itself is shared.
  const drawing = new Map<string, Promise<Drawn>>();

  function playlistPlan(
    i18n: I18n,
    id: string,
    first: StoredPage,
    index: number | undefined,
  ): Plan | null {
    const info = playlistDigest(first)?.info;
    if (info === undefined) return null;
    const title = info.title || i18n._('preview.playlist.titleById', { id });
    if (index !== undefined && index <= info.totalItems) {
      const where = i18n._('card.position', { index, total: info.totalItems });
      const item = cachedPlaylistItem(pageSource, id, first, index);
      return item === null
        ? {
            // Its page not read yet: where it is, in which list; the list's own picture.
            content: { kicker: where, title, details: [info.channelTitle], layout: 'feature' },
            thumbnails: [pictureFor(info.thumbnails, 520)],
          }
        : {
            content: {
              kicker: where,
              title: item.title,
              details: [i18n._('card.inList', { title })],
              layout: 'feature',
            },
            thumbnails: [pictureFor(item.thumbnails, 520)],
          };
    }
    const duration = cachedPlaylistDuration(pageSource, id, first);
    const counts = i18n._('card.countVideos', { count: info.totalItems });
    const items = readStored<PlaylistPage>(first)?.items ?? [];
    return {
      content: {
        kicker: i18n._('title.playlist'),
        title,
        details: [
          info.channelTitle,
          duration === null
            ? counts
            : i18n._('card.countWithTime', { counts, time: totalTime(i18n, duration) }),
        ],
        layout: 'mosaic',
      },
      thumbnails: items.slice(0, 4).map((item) => pictureFor(item.thumbnails, 255)),
    };
  }

  function channelPlan(i18n: I18n, list: ListLookup, first: StoredPage): Plan {
    const name = channelTitles?.get(list.id) ?? list.id;
    const videos = list.endpoint === 'channel-videos';
    const items = videos
      ? (readStored<ChannelVideosPage>(first)?.items ?? [])
      : (readStored<ChannelPlaylistsPage>(first)?.items ?? []);
    return {
      content: {
        kicker: i18n._(videos ? 'card.channel.videos' : 'card.channel.playlists'),
        title: name,
        details: [i18n._(videos ? 'card.channel.videosDetail' : 'card.channel.playlistsDetail')],
        layout: 'mosaic',
      },
      thumbnails: items.slice(0, 4).map((item) => pictureFor(item.thumbnails, 255)),
    };
  }

  const homePlan = (i18n: I18n): Plan => ({
    content: {
      kicker: i18n._('card.home.kicker'),
      title: i18n._('card.home.title'),
      details: [i18n._('card.home.detail')],
      layout: 'text',
    },
    thumbnails: [],
  });

  /** A thumbnail's bytes through the embedded catalogue's proxy; null for anything else. */
  async function picture(thumbnail: Thumbnail | null): Promise<Buffer | null> {
    if (thumbnail === null || thumbnails === null || !thumbnail.url.startsWith(THUMBNAIL_PREFIX))
      return null;
    const answer = await thumbnails.fetch(thumbnail.url).catch(() => null);
    return answer?.status === 200 ? answer.body : null;
  }

  const asCard = (png: Buffer): Drawn => ({ png, etag: `"${hash('sha1', png, 'base64url')}"` });

  /** The card for `plan`: kept, being drawn, drawn by another replica, or drawn now. */
  async function draw(plan: Plan, client: string): Promise<CardAnswer> {
    const key = hash('sha1', JSON.stringify(plan), 'base64url');
    const known = kept.get(key);
    if (known !== undefined) return { kind: 'card', ...known };
    const pending = drawing.get(key);
    if (pending !== undefined) return { kind: 'card', ...(await pending) };
    // Another replica may have drawn it: the same key is the same picture.
    const shared = await store.get(key);
    if (shared !== undefined) {
      const card = asCard(shared);
      kept.set(key, card);
      return { kind: 'card', ...card };
    }
    const allowed = await drawLimit.take(client);
    if (!allowed.ok) return { kind: 'limited', retryAfterSeconds: allowed.retryAfterSeconds };
    // Someone may have started drawing it while the allowance was asked.
    const started = drawing.get(key);
    if (started !== undefined) return { kind: 'card', ...(await started) };
    const drawn = (async () => {
      const images = await Promise.all(plan.thumbnails.map(picture));
      // sharp (libvips, Pango and the card fonts) loads with the first card drawn, not with
      // the process: a replica whose lists are never shared never draws one.
      const { drawCard } = await import('./card-image.ts');
      const card = asCard(await drawCard({ ...plan.content, images }));
      store.set(key, card.png);
      kept.set(key, card);
      return card;
    })().finally(() => drawing.delete(key));
    drawing.set(key, drawn);
    return { kind: 'card', ...(await drawn) };
  }

  return {
    async card(pathname, search, client) {
      // A card's language is its link's (`hl`, which the view's preview writes); never
      // negotiated, since caches everywhere keep cards by URL alone.
      const locale = catalogLocaleOf(search.get(LANGUAGE_PARAM)) ?? DEFAULT_LOCALE;
      const { i18n } = translationsFor(locale);
      if (pathname === HOME_CARD) return draw(homePlan(i18n), client);
      if (!pathname.startsWith(`${CARDS_PREFIX}/`) || !pathname.endsWith('.png'))
        return { kind: 'not-found' };
      const viewPath = pathname.slice(CARDS_PREFIX.length, -'.png'.length);
      const match = matchAppRoute(viewPath);
      if (match === null || match.route === 'home') return { kind: 'not-found' };
      const list = listForUrl(viewPath, search);
      if (list === null) return { kind: 'not-found' };
      const first = await previewFirstPage(pageSource, list, client);
      if (first.kind === 'problem') {
        return first.status === 404 || first.status === 400
          ? { kind: 'not-found' }
          : { kind: 'unavailable', retryAfterSeconds: first.retryAfterSeconds };
      }
      const plan =
        list.endpoint === 'playlist'
          ? playlistPlan(i18n, list.id, first, readIndex(search.get('index')))
          : channelPlan(i18n, list, first);
      if (plan === null) return { kind: 'not-found' };
      return draw(plan, client);
    },
  };
}
