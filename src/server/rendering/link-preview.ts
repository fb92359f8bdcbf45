import type {
  ChannelPlaylistsPage,
  ChannelVideosPage,
  PlaylistInfo,
  PlaylistPage,
  Thumbnail,
} from '../../shared/catalogue-schema.ts';
import {
  channelPath,
  followingPath,
  jobsPath,
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
import { escapeHtml, oneLine, truncate } from './preview-text.ts';
import { translationsFor } from './translations.ts';
import {
  DEFAULT_LOCALE,
  LOCALES,
  OPEN_GRAPH_LOCALES,
  type CatalogLocale,
} from '../../shared/locales.ts';
import type { I18n } from '@lingui/core';
import { structuredDataTags, type StructuredView } from './structured-data.ts';
import { CARD_HEIGHT, CARD_WIDTH, cardPath } from '../cards/card-address.ts';
import { OEMBED_PATH } from '../../shared/oembed.ts';
import { FEED_FORMATS, feedPath, type FeedFormat, type FeedList } from '../../shared/feeds.ts';

/** The feeds a view's head names, Atom first (what a reader takes when it takes the first). */
const FEED_LABELS: ReadonlyArray<[FeedFormat, string]> = [
  ['atom', 'Atom'],
  ['rss', 'RSS'],
  ['json', 'JSON Feed'],
];

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
  /** The language its words are in. */
  locale: CatalogLocale;
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
  /** The list whose feeds (routes/feeds.ts) the head names, for feed readers to find. */
  feed: { list: FeedList; id: string } | null;
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

/** A preview before its language is noted. */
type Preview = Omit<LinkPreview, 'locale'>;

export interface LinkPreviews {
  /** The <head> tags (title, description, canonical, og:*, twitter:*) for `url` (pathname + search of the request). */
  headFor(url: URL, origin: string, first: FirstPage, locale?: CatalogLocale): string;
  /** The preview `headFor` writes, before any origin is applied, in `locale` (English). */
  previewFor(url: URL, first: FirstPage, locale?: CatalogLocale): LinkPreview;
}

export interface LinkPreviewOptions {
  /** The page source, or anything else with its cache-only read. */
  pageSource: CachedPages;
  /** Channel names seen in playlist pages; without it channels are previewed by their ID. */
  channelTitles?: Pick<ChannelTitles, 'get'>;
}

/** The product's name, the same in every language (og:site_name, oEmbed's provider). */
export const SITE_NAME = 'Catalogue Explorer';
/** Around what unfurlers show before cutting a description themselves. */
const DESCRIPTION_MAX = 200;
const TITLE_MAX = 150;

const CHANNEL_TAB_LABEL = {
  videos: 'channel.tab.videos',
  playlists: 'channel.tab.playlists',
} as const satisfies Record<ChannelTab, string>;

/** What a not-found URL of each route failed to name. */
const NOT_FOUND_DESCRIPTION = {
  home: 'preview.notFound.page',
  following: 'preview.notFound.page',
  jobs: 'preview.notFound.page',
  platformPlaylist: 'preview.notFound.playlist',
  platformWatch: 'preview.notFound.playlist',
  playlist: 'preview.notFound.playlist',
  channel: 'preview.notFound.channel',
  channelVideos: 'preview.notFound.channel',
  channelPlaylists: 'preview.notFound.channel',
  embedPlaylist: 'preview.notFound.playlist',
  embedChannel: 'preview.notFound.channel',
  embedChannelPlaylists: 'preview.notFound.channel',
} as const satisfies Record<RouteName, string>;

export function createLinkPreviews(options: LinkPreviewOptions): LinkPreviews {
  const { pageSource: pages, channelTitles } = options;

  /** The list's first page: the one the route got, else whatever the cache holds. */
  const firstPageOf = (list: ListLookup, first: FirstPage): StoredPage | undefined =>
    first.kind === 'page' && first.list.endpoint === list.endpoint && first.list.id === list.id
      ? first.page
      : pages.peek({ ...list, continuation: undefined });

  function notFound(i18n: I18n, url: URL, route: RouteName | null): Preview {
    const heading = i18n._('title.notFound');
    return {
      title: heading,
      documentTitle: i18n._('title.withSite', { title: heading }),
      description: i18n._(route === null ? 'preview.notFound.page' : NOT_FOUND_DESCRIPTION[route]),
      path: url.pathname,
      image: null,
      card: null,
      embeddable: false,
      feed: null,
      structured: null,
      notFound: true,
      failed: false,
      complete: true,
    };
  }

  function playlistAbout(i18n: I18n, info: PlaylistInfo): string {
    const owner = truncate(info.channelTitle, 80);
    const count = info.totalItems;
    const description = truncate(info.description, DESCRIPTION_MAX);
    return description === ''
      ? i18n._('preview.playlist.about', { owner, count })
      : i18n._('preview.playlist.aboutWithDescription', { owner, count, description });
  }

  function playlist(i18n: I18n, id: string, search: URLSearchParams, first: FirstPage): Preview {
    const index = readIndex(search.get('index'));
    const video = search.get('v');
    // The view opens at `index`, else at the video `v` names (playlistPath keeps the one that wins).
    const videoId = video !== null && VIDEO_ID_PATTERN.test(video) ? video : undefined;
    const path = playlistPath(id, { index, videoId });
    const firstPage = firstPageOf({ endpoint: 'playlist', id }, first);
    const info = firstPage && playlistDigest(firstPage)?.info;
    if (firstPage === undefined || info === undefined) {
      return {
        title: i18n._('preview.playlist.titleById', { id }),
        documentTitle: i18n._('title.withSite', { title: i18n._('title.playlist') }),
        description: i18n._('preview.playlist.pending'),
        path,
        image: null,
        card: null,
        embeddable: true,
        feed: { list: 'playlist', id },
        structured: null,
        notFound: false,
        failed: false,
        complete: false,
      };
    }
    // A playlist without a title still needs one in a preview.
    const title = truncate(info.title, TITLE_MAX) || i18n._('preview.playlist.titleById', { id });
    const preview: Preview = {
      title,
      documentTitle: i18n._('title.withSite', {
        title: oneLine(info.title) || i18n._('title.playlist'),
      }),
      description: playlistAbout(i18n, info),
      path,
      image: largestThumbnail(info.thumbnails),
      card: cardPath(playlistPath(id), undefined, i18n.locale),
      embeddable: true,
      feed: { list: 'playlist', id },
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
    const where = i18n._('preview.playlist.position', { index, total: info.totalItems, title });
    const item = cachedPlaylistItem(pages, id, firstPage, index);
    const card = cardPath(playlistPath(id), index, i18n.locale);
    if (item === null) return { ...preview, description: where, card, complete: false };
    return {
      ...preview,
      card,
      title: truncate(item.title, TITLE_MAX) || title,
      description: where,
      image: largestThumbnail(item.thumbnails) ?? preview.image,
    };
  }

  function channel(i18n: I18n, id: string, tab: ChannelTab, first: FirstPage): Preview {
    const name = channelTitles?.get(id);
    const shown = name === undefined ? id : truncate(name, TITLE_MAX);
    const label = i18n._(CHANNEL_TAB_LABEL[tab]);
    const endpoint = tab === 'videos' ? 'channel-videos' : 'channel-playlists';
    const firstPage = firstPageOf({ endpoint, id }, first);
    const description =
      name === undefined
        ? i18n._(
            tab === 'videos' ? 'preview.channel.videosById' : 'preview.channel.playlistsById',
            {
              id,
            },
          )
        : i18n._(tab === 'videos' ? 'preview.channel.videos' : 'preview.channel.playlists', {
            name: shown,
          });
    return {
      title: i18n._('preview.channel.title', { name: shown, tab: label }),
      documentTitle: i18n._('title.channelTab', {
        name: name === undefined ? id : oneLine(name),
        tab: label,
      }),
      description,
      path: channelPath(id, tab),
      // The first row the view shows: the newest video, or the first playlist.
      image: firstPage === undefined ? null : firstItemThumbnail(firstPage),
      card: firstPage === undefined ? null : cardPath(channelPath(id, tab), undefined, i18n.locale),
      embeddable: true,
      feed: { list: 'channel', id },
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

  function previewFor(
    url: URL,
    first: FirstPage,
    locale: CatalogLocale = DEFAULT_LOCALE,
  ): LinkPreview {
    const preview = viewPreview(translationsFor(locale).i18n, url, first);
    return { ...preview, locale, ...(first.kind === 'failed' ? { failed: true } : {}) };
  }

  function viewPreview(i18n: I18n, url: URL, first: FirstPage): Preview {
    const match = matchAppRoute(url.pathname);
    if (match === null || first.kind === 'not-found')
      return notFound(i18n, url, match?.route ?? null);
    // Pages of the explorer's own, not a list: their words, complete as they are.
    const ownPage = (
      fields: Pick<Preview, 'title' | 'documentTitle' | 'description' | 'path' | 'card'>,
    ): Preview => ({
      ...fields,
      image: null,
      embeddable: false,
      feed: null,
      structured: null,
      notFound: false,
      failed: false,
      complete: true,
    });
    if (match.route === 'following') {
      // A reader's own follows, kept in their browser: nothing to unfurl but the page.
      const title = i18n._('following.title');
      return ownPage({
        title,
        documentTitle: i18n._('title.withSite', { title }),
        description: i18n._('following.preview'),
        path: followingPath(),
        card: null,
      });
    }
    if (match.route === 'jobs') {
      // The jobs this browser started, kept in it: nothing to unfurl but the page.
      const title = i18n._('jobs.title');
      return ownPage({
        title,
        documentTitle: i18n._('title.withSite', { title }),
        description: i18n._('jobs.preview'),
        path: jobsPath(),
        card: null,
      });
    }
    if (match.route === 'home') {
      return ownPage({
        title: i18n._('app.name'),
        documentTitle: i18n._('app.name'),
        description: i18n._('preview.site.description'),
        path: homePath(),
        card: cardPath(homePath(), undefined, i18n.locale),
      });
    }
    // Only an ID of the right shape names a list; the route answers anything else with 404.
    const list = listForUrl(url.pathname, url.searchParams);
    if (list === null) return notFound(i18n, url, match.route);
    if (list.endpoint === 'playlist') return playlist(i18n, list.id, url.searchParams, first);
    const tab = list.endpoint === 'channel-videos' ? 'videos' : 'playlists';
    return channel(i18n, list.id, tab, first);
  }

  return {
    previewFor,
    headFor: (url, origin, first, locale) => renderHead(previewFor(url, first, locale), origin),
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

/** The tags, every value escaped; the structured data lists the first `shown` items. */
export function renderHead(preview: LinkPreview, origin: string, shown?: number): string {
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
    // The language the preview is in, and the others the same address can be read in (its
    // `?hl=` forms; the canonical stays the one address of the view).
    meta('property', 'og:locale', OPEN_GRAPH_LOCALES[preview.locale]),
    ...LOCALES.filter((other) => other !== preview.locale).map((other) =>
      meta('property', 'og:locale:alternate', OPEN_GRAPH_LOCALES[other]),
    ),
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
  if (preview.feed && !preview.notFound && !preview.failed) {
    // Feed autodiscovery: a reader given the view's address finds its feeds in each format.
    const { list, id } = preview.feed;
    for (const [format, label] of FEED_LABELS)
      tags.push(
        `<link rel="alternate" type="${FEED_FORMATS[format].type}" href="${escapeHtml(`${origin}${feedPath(list, id, format)}`)}" title="${escapeHtml(`${preview.title} (${label})`)}" />`,
      );
  }
  if (preview.structured && !preview.notFound && !preview.failed)
    tags.push(structuredDataTags(preview.structured, origin, shown));
  return tags.join('\n');
}
