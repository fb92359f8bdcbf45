import { readEmbedTheme } from '../../shared/embed-theme.ts';
import {
  matchAppRoute,
  playlistPath,
  readIndex,
  ROUTE_PATTERNS,
  type RouteMatch,
} from '../../shared/app-routes.ts';
import { hasPanelParams, readPanelParams } from '../../shared/panel-params.ts';
import { DEFAULT_LOCALE, type CatalogLocale } from '../../shared/locales.ts';
import type { ScreenClass } from '../../shared/app-render.ts';

// What of an app URL the server's render depends on, so that every URL rendering alike shares
// one render (app-html.ts) and one allowance token (routes/app-pages.ts): anything else in the
// query (`utm_source`, a cache-buster, a typo) is left out of the render and its key, so a flood
// of such URLs costs one render; the app reads the real address when it hydrates. What is kept
// comes from reading every reader of the location in src/app: the path in one spelling, a
// playlist's deep link, whether the Whole list panel opens (not its choices, drawn once
// hydrated), an embed's theme, and what the home and not-found views echo back. The language
// and the screen class (http/screen-class.ts) are not read from the URL but are in the key.

export interface RenderAddress {
  /** The render cache's key: equal for URLs the app renders alike. */
  key: string;
  /** The path and query the app renders (the query holds only what it reads). */
  path: string;
}

/** The route's path with its ID in one spelling. */
function canonicalPath(match: RouteMatch): string {
  const pattern = ROUTE_PATTERNS[match.route];
  return match.id === undefined ? pattern : pattern.replace(':id', encodeURIComponent(match.id));
}

/** The panel's own choices, in a fixed order, when the link names any (else none). */
function panelQuery(search: URLSearchParams): URLSearchParams | null {
  const params = readPanelParams(search);
  if (!hasPanelParams(params)) return null;
  const query = new URLSearchParams();
  if (params.q !== '') query.set('q', params.q);
  if (params.sort !== 'given') query.set('sort', params.sort);
  if (params.from !== undefined) query.set('from', String(params.from));
  if (params.to !== undefined) query.set('to', String(params.to));
  return query;
}

const withQuery = (path: string, query: URLSearchParams) => {
  const text = query.toString();
  if (text === '') return path;
  return `${path}${path.includes('?') ? '&' : '?'}${text}`;
};

/**
 * `language` is the page's (http/request-locale.ts): the app reads it from the document, not
 * from the URL, so `hl` is never in the rendered path, and a link with `?hl=ja` and a reader
 * whose browser asks for Japanese share one render.
 */
export function renderAddress(
  url: URL,
  language: CatalogLocale = DEFAULT_LOCALE,
  screen: ScreenClass = 'wide',
): RenderAddress {
  const keyed = (path: string, panel: URLSearchParams | null = null): RenderAddress => ({
    // Links naming different choices of the panel render alike: one key for "the panel opens".
    key: `${language}${screen === 'wide' ? '' : ` ${screen}`} ${path}${panel === null ? '' : ' +panel'}`,
    path: panel === null ? path : withQuery(path, panel),
  });
  const search = url.searchParams;
  const match = matchAppRoute(url.pathname);
  if (match === null) return keyed(url.pathname);
  switch (match.route) {
    case 'home': {
      // The box's submission without scripts (`/?target=`) that could not be opened: the view
      // shows what was pasted and why (routes/app-pages.ts redirects the others).
      const target = search.get('target');
      const query = new URLSearchParams(target === null ? {} : { target });
      return keyed(withQuery(canonicalPath(match), query));
    }
    case 'following':
    case 'jobs':
      return keyed(canonicalPath(match));
    case 'playlist': {
      // The deep link as the preview's canonical URL writes it: `index` wins over `v`.
      const video = search.get('v') ?? undefined;
      const index = readIndex(search.get('index'));
      return keyed(playlistPath(match.id ?? '', { index, videoId: video }), panelQuery(search));
    }
    case 'channel':
    case 'channelVideos':
    case 'channelPlaylists':
      return keyed(canonicalPath(match), panelQuery(search));
    case 'embedPlaylist':
    case 'embedChannel':
    case 'embedChannelPlaylists': {
      // An embed reads only its pinned scheme, when it is one of the two.
      const theme = readEmbedTheme(search.get('theme'));
      const query = new URLSearchParams(theme === undefined ? {} : { theme });
      return keyed(withQuery(canonicalPath(match), query));
    }
    case 'platformPlaylist':
    case 'platformWatch': {
      // Only rendered when not redirected: the message reads `list`, and `v` on /watch.
      const query = new URLSearchParams();
      const list = search.get('list');
      if (list !== null) query.set('list', list);
      const video = search.get('v');
      if (match.route === 'platformWatch' && video !== null) query.set('v', video);
      return keyed(withQuery(canonicalPath(match), query));
    }
  }
}
