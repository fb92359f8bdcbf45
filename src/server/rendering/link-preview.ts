import type {
  ChannelPlaylistsPage,
  ChannelVideosPage,
  PlaylistInfo,
  PlaylistPage,
  Thumbnail,
} from '../../shared/catalogue-schema.ts';
import {
  channelPath,
  homePath,
  listForUrl,
  matchAppRoute,
  playlistPath,
  readIndex,
  type ChannelTab,
  type ListLookup,
  type RouteName,
} from '../../shared/app-routes.ts';
import { VIDEO_ID_PATTERN } from '../../shared/id-patterns.ts';
import {
  cachedPlaylistItem,
  firstItemThumbnail,
  largestThumbnail,
  playlistDigest,
  readStored,
  type CachedPages,
} from './cached-pages.ts';
import type { ChannelTitles } from './channel-titles.ts';
import type { StoredPage } from '../pages/page-entry.ts';
import { countOf, escapeHtml, formatCount, oneLine, truncate } from './preview-text.ts';
import { structuredDataTags, type StructuredView } from './structured-data.ts';
import { CARD_HEIGHT, CARD_WIDTH, cardPath } from '../cards/card-address.ts';
import { OEMBED_PATH } from '../../shared/oembed.ts';

export { publicOrigin, type PublicOriginOptions } from './public-origin.ts';

// Link previews: what a chat app, a social site or a search engine shows for an explorer URL
// without running the app. Every app URL gets a <title>, a description, a canonical link, Open
// Graph and a Twitter card, from what the server has at hand when the HTML is written: the
// view's first page (passed in by the route), the channel-title index, and pages in the cache,
// read without ever asking the upstream (cached-pages.ts). The canonical and og:url are the
// explorer's own form of the view (path builders of app-routes.ts), so the platform's
// `/playlist?list=` and `/watch?…&list=` forms preview as the playlist they open.

export type FirstPage =
  /** The list's first page, as the page source answered. */
  | { kind: 'page'; list: ListLookup; page: StoredPage }
  /** Unknown path, unknown list, or bad ID. */
  | { kind: 'not-found' }
  /** Home, or the first page was not at hand yet (a slow upstream). */
  | { kind: 'none' }
  /** The upstream could not give the first page: the route answers 5xx or 429. */
  | { kind: 'failed' };

export interface LinkPreview {
  /** og:title and twitter:title. */
  title: string;
  /** <title>: as the app's view writes it, so the tab does not change when the app takes over. */
  documentTitle: string;
  description: string;
  /** og:url (path and query on the public origin); also the canonical unless `notFound`. */
  path: string;
  /** The picture the view's card shows (and an unfurler's image when there is no card). */
  image: Thumbnail | null;
  /** The view's preview card (cards/preview-cards.ts), path and query; null when none. */
  card: string | null;
  /** A list's view, which oEmbed embeds (routes/oembed.ts): its head names the provider. */
  embeddable: boolean;
  /** The view's first page for its JSON-LD (structured-data.ts); null when there is none. */
  structured: StructuredView | null;
  notFound: boolean;
  /**
   * The page answers with an error status (the upstream failed): nothing there to index, so no
   * canonical and `noindex`, as for a page not found; og:url still names the view.
   */
  failed: boolean;
  /**
   * False when a later call could say more: a title or an item the cache or the channel-title
   * index may yet learn (for whoever keeps rendered pages, app-html.ts).
   */
  complete: boolean;
}

export interface LinkPreviews {
  /** The <head> tags (title, description, canonical, og:*, twitter:*) for `url` (pathname + search of the request). */
  headFor(url: URL, origin: string, first: FirstPage): string;
  /** The preview `headFor` writes, before any origin is applied. */
  previewFor(url: URL, first: FirstPage): LinkPreview;
}

export interface LinkPreviewOptions {
  /** The page source, or anything else with its cache-only read. */
  pageSource: CachedPages;
  /** Channel names seen in playlist pages; without it channels are previewed by their ID. */
  channelTitles?: Pick<ChannelTitles, 'get'>;
}

export const SITE_NAME = 'Catalogue Explorer';
const SITE_DESCRIPTION =
  'Browse a video platform’s playlists and channels: open a playlist of 5,000 videos or a ' +
  'channel of ten thousand, scroll through all of it, and share a link to exactly what you see.';
/** Around what unfurlers show before cutting a description themselves. */
const DESCRIPTION_MAX = 200;
const TITLE_MAX = 150;

const withSite = (title: string) => `${title} · ${SITE_NAME}`;

const CHANNEL_TAB_LABEL: Record<ChannelTab, string> = { videos: 'Videos', playlists: 'Playlists' };

/** What a not-found URL of each route failed to name. */
const NOT_FOUND_SUBJECT: Record<RouteName, string> = {
  home: 'page',
  platformPlaylist: 'playlist',
  platformWatch: 'playlist',
  playlist: 'playlist',
  channel: 'channel',
  channelVideos: 'channel',
  channelPlaylists: 'channel',
  embedPlaylist: 'playlist',
  embedChannel: 'channel',
  embedChannelPlaylists: 'channel',
};

export function createLinkPreviews(options: LinkPreviewOptions): LinkPreviews {
  const { pageSource: pages, channelTitles } = options;

  /** The list's first page: the one the route got, else whatever the cache holds. */
  const firstPageOf = (list: ListLookup, first: FirstPage): StoredPage | undefined =>
    first.kind === 'page' && first.list.endpoint === list.endpoint && first.list.id === list.id
      ? first.page
      : pages.peek({ ...list, continuation: undefined });

  function notFound(url: URL, route: RouteName | null): LinkPreview {
    const what = route === null ? 'page' : NOT_FOUND_SUBJECT[route];
    return {
      title: 'Not found',
      documentTitle: withSite('Not found'),
      description: `There is no ${what} at this address. Open a playlist or channel from the home page.`,
      path: url.pathname,
      image: null,
      card: null,
      embeddable: false,
      structured: null,
      notFound: true,
      failed: false,
      complete: true,
    };
  }

  function playlistAbout(info: PlaylistInfo): string {
    const owner = truncate(info.channelTitle, 80);
    const about = `${owner} · ${countOf(info.totalItems, 'video', 'videos')}`;
    const description = truncate(info.description, DESCRIPTION_MAX);
    return description === '' ? about : `${about} — ${description}`;
  }

  function playlist(id: string, search: URLSearchParams, first: FirstPage): LinkPreview {
    const index = readIndex(search.get('index'));
    const video = search.get('v');
    // The view opens at `index`, else at the video `v` names (playlistPath keeps the one that wins).
    const videoId = video !== null && VIDEO_ID_PATTERN.test(video) ? video : undefined;
    const path = playlistPath(id, { index, videoId });
    const firstPage = firstPageOf({ endpoint: 'playlist', id }, first);
    const info = firstPage && playlistDigest(firstPage)?.info;
    if (firstPage === undefined || info === undefined) {
      return {
        title: `Playlist ${id}`,
        documentTitle: withSite('Playlist'),
        description: `A playlist of videos, to browse in ${SITE_NAME}.`,
        path,
        image: null,
        card: null,
        embeddable: true,
        structured: null,
        notFound: false,
        failed: false,
        complete: false,
      };
    }
    // A playlist without a title still needs one in a preview.
    const title = truncate(info.title, TITLE_MAX) || `Playlist ${id}`;
    const preview: LinkPreview = {
      title,
      documentTitle: withSite(oneLine(info.title) || 'Playlist'),
      description: playlistAbout(info),
      path,
      image: largestThumbnail(info.thumbnails),
      card: cardPath(playlistPath(id)),
      embeddable: true,
      structured: {
        kind: 'playlist',
        id,
        info,
        items: readStored<PlaylistPage>(firstPage)?.items ?? [],
      },
      notFound: false,
      failed: false,
      complete: true,
    };
    // Past the end the app finds nothing either: the playlist is the whole answer.
    if (index === undefined || index > info.totalItems) return preview;
    // The first page gives the total, so a link to item N says where N is even while the page
    // holding it has not been read: its title and thumbnail come once a reader has been there.
    const where = `#${formatCount(index)} of ${formatCount(info.totalItems)} in ${title}`;
    const item = cachedPlaylistItem(pages, id, firstPage, index);
    const card = cardPath(playlistPath(id), index);
    if (item === null) return { ...preview, description: where, card, complete: false };
    return {
      ...preview,
      card,
      title: truncate(item.title, TITLE_MAX) || title,
      description: where,
      image: largestThumbnail(item.thumbnails) ?? preview.image,
    };
  }

  function channel(id: string, tab: ChannelTab, first: FirstPage): LinkPreview {
    const name = channelTitles?.get(id);
    const shown = name === undefined ? id : truncate(name, TITLE_MAX);
    const label = CHANNEL_TAB_LABEL[tab];
    const endpoint = tab === 'videos' ? 'channel-videos' : 'channel-playlists';
    const firstPage = firstPageOf({ endpoint, id }, first);
    const who = name === undefined ? `channel ${id}` : shown;
    return {
      title: `${shown} · ${label}`,
      documentTitle: withSite(`${name === undefined ? id : oneLine(name)} · ${label}`),
      description:
        tab === 'videos' ? `Videos from ${who}, newest first.` : `Playlists from ${who}.`,
      path: channelPath(id, tab),
      // The first row the view shows: the newest video, or the first playlist.
      image: firstPage === undefined ? null : firstItemThumbnail(firstPage),
      card: firstPage === undefined ? null : cardPath(channelPath(id, tab)),
      embeddable: true,
      structured:
        firstPage === undefined
          ? null
          : {
              kind: 'channel',
              id,
              tab,
              name,
              videos:
                tab === 'videos' ? (readStored<ChannelVideosPage>(firstPage)?.items ?? []) : [],
              playlists:
                tab === 'playlists'
                  ? (readStored<ChannelPlaylistsPage>(firstPage)?.items ?? [])
                  : [],
            },
      notFound: false,
      failed: false,
      complete: name !== undefined && firstPage !== undefined,
    };
  }

  function previewFor(url: URL, first: FirstPage): LinkPreview {
    const preview = viewPreview(url, first);
    return first.kind === 'failed' ? { ...preview, failed: true } : preview;
  }

  function viewPreview(url: URL, first: FirstPage): LinkPreview {
    const match = matchAppRoute(url.pathname);
    if (match === null || first.kind === 'not-found') return notFound(url, match?.route ?? null);
    if (match.route === 'home') {
      return {
        title: SITE_NAME,
        documentTitle: SITE_NAME,
        description: SITE_DESCRIPTION,
        path: homePath(),
        image: null,
        card: cardPath(homePath()),
        embeddable: false,
        structured: null,
        notFound: false,
        failed: false,
        complete: true,
      };
    }
    // Only an ID of the right shape names a list; the route answers anything else with 404.
    const list = listForUrl(url.pathname, url.searchParams);
    if (list === null) return notFound(url, match.route);
    if (list.endpoint === 'playlist') return playlist(list.id, url.searchParams, first);
    return channel(list.id, list.endpoint === 'channel-videos' ? 'videos' : 'playlists', first);
  }

  return {
    previewFor,
    headFor: (url, origin, first) => renderHead(previewFor(url, first), origin),
  };
}

/**
 * An image URL made absolute on `origin`: the embedded catalogue's are root-relative, served by
 * the explorer's /thumbnails proxy (spec §2.5), and an unfurler fetches images from elsewhere.
 * Null unless http(s).
 */
function absoluteImage(raw: string, origin: string): string | null {
  const url = URL.parse(raw, origin);
  return url !== null && (url.protocol === 'https:' || url.protocol === 'http:') ? url.href : null;
}

/** Image types an unfurler takes, by the URL path's extension (`…/hqdefault.jpg?sqp=…`, spec §2.5). */
const IMAGE_TYPES = new Map([
  ['jpg', 'image/jpeg'],
  ['jpeg', 'image/jpeg'],
  ['png', 'image/png'],
  ['webp', 'image/webp'],
  ['gif', 'image/gif'],
]);

function imageType(absolute: string): string | undefined {
  const extension = /\.([a-z]+)$/i.exec(new URL(absolute).pathname)?.[1];
  return extension === undefined ? undefined : IMAGE_TYPES.get(extension.toLowerCase());
}

/** The tags, every value escaped. */
export function renderHead(preview: LinkPreview, origin: string): string {
  const url = `${origin}${preview.path}`;
  const image = preview.image && absoluteImage(preview.image.url, origin);
  const meta = (key: 'name' | 'property', name: string, content: string) =>
    `<meta ${key}="${name}" content="${escapeHtml(content)}" />`;
  const tags = [
    `<title>${escapeHtml(preview.documentTitle)}</title>`,
    meta('name', 'description', preview.description),
    // A page that is not there (or failed) has no canonical address, and nothing to index.
    preview.notFound || preview.failed
      ? meta('name', 'robots', 'noindex')
      : `<link rel="canonical" href="${escapeHtml(url)}" />`,
    meta('property', 'og:site_name', SITE_NAME),
    meta('property', 'og:type', 'website'),
    meta('property', 'og:title', preview.title),
    meta('property', 'og:description', preview.description),
    meta('property', 'og:url', url),
  ];
  // The card, where the view has one: an unfurler shows the first og:image.
  const card =
    preview.card && !preview.notFound && !preview.failed ? `${origin}${preview.card}` : null;
  if (card) {
    tags.push(
      meta('property', 'og:image', card),
      meta('property', 'og:image:type', 'image/png'),
      meta('property', 'og:image:width', String(CARD_WIDTH)),
      meta('property', 'og:image:height', String(CARD_HEIGHT)),
      meta('property', 'og:image:alt', preview.title),
    );
  } else if (image) {
    tags.push(meta('property', 'og:image', image));
    const type = imageType(image);
    if (type !== undefined) tags.push(meta('property', 'og:image:type', type));
    const { width, height } = preview.image as Thumbnail;
    if (width > 0 && height > 0) {
      tags.push(meta('property', 'og:image:width', String(width)));
      tags.push(meta('property', 'og:image:height', String(height)));
    }
  }
  tags.push(
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:title', preview.title),
    meta('name', 'twitter:description', preview.description),
  );
  if (card)
    tags.push(
      meta('name', 'twitter:image', card),
      meta('name', 'twitter:image:alt', preview.title),
    );
  else if (image) tags.push(meta('name', 'twitter:image', image));
  if (preview.embeddable && !preview.notFound && !preview.failed) {
    // oEmbed discovery (oembed.com §4): consumers find the provider from the page itself.
    const query = new URLSearchParams({ url, format: 'json' });
    tags.push(
      `<link rel="alternate" type="application/json+oembed" href="${escapeHtml(`${origin}${OEMBED_PATH}?${query}`)}" title="${escapeHtml(preview.title)}" />`,
    );
  }
  if (preview.structured && !preview.notFound && !preview.failed)
    tags.push(structuredDataTags(preview.structured, origin));
  return tags.join('\n');
}
