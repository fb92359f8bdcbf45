import type { EndpointName } from './endpoints.ts';
import { CHANNEL_ID_PATTERN, PLAYLIST_ID_PATTERN, VIDEO_ID_PATTERN } from './id-patterns.ts';
import { decodeOrNull } from './percent-decoding.ts';

// The app's URL space, written down once. The app's router, the server (which answers 200
// for these paths and 404 for the rest, embeds a path's first page and preloads its view
// code) and every link the app builds read this module; nothing else spells a route.

/** The app's views, each a code chunk of its own. */
export type AppView =
  'home' | 'playlist' | 'channel' | 'platform-link' | 'embed' | 'following' | 'jobs';

export type ChannelTab = 'videos' | 'playlists';

/**
 * Route patterns in React Router's syntax. `platformPlaylist` and `platformWatch` are the
 * platform's own URL forms with our host (`/playlist?list=ID`, `/watch?v=VIDEO&list=ID`).
 */
export const ROUTE_PATTERNS = {
  home: '/',
  // The lists a reader follows, kept in their browser: what is new in each.
  following: '/following',
  // The whole-list jobs this browser started (docs/jobs.md): their progress and results.
  jobs: '/jobs',
  platformPlaylist: '/playlist',
  platformWatch: '/watch',
  playlist: '/playlist/:id',
  channel: '/channel/:id',
  channelVideos: '/channel/:id/videos',
  channelPlaylists: '/channel/:id/playlists',
  // A list on its own, compact, for an <iframe> on another site (oEmbed's snippet).
  embedPlaylist: '/embed/playlist/:id',
  embedChannel: '/embed/channel/:id',
  embedChannelPlaylists: '/embed/channel/:id/playlists',
} as const;

export type RouteName = keyof typeof ROUTE_PATTERNS;

/** The views a route needs, in the order they show. */
const ROUTE_VIEWS: Record<RouteName, readonly AppView[]> = {
  home: ['home'],
  following: ['following'],
  jobs: ['jobs'],
  // A small view reads the platform's query string, then opens the playlist.
  platformPlaylist: ['platform-link', 'playlist'],
  platformWatch: ['platform-link', 'playlist'],
  playlist: ['playlist'],
  channel: ['channel'],
  channelVideos: ['channel'],
  channelPlaylists: ['channel'],
  embedPlaylist: ['embed'],
  embedChannel: ['embed'],
  embedChannelPlaylists: ['embed'],
};

/** Each view's module, as Vite names it in its build manifest (the server preloads it). */
export const VIEW_MODULES: Record<AppView, string> = {
  home: 'src/app/routes/home-route.tsx',
  playlist: 'src/app/routes/playlist-route.tsx',
  channel: 'src/app/routes/channel-routes.tsx',
  'platform-link': 'src/app/routes/platform-link-route.tsx',
  embed: 'src/app/routes/embed-route.tsx',
  following: 'src/app/following/following-route.tsx',
  jobs: 'src/app/jobs/jobs-route.tsx',
};

export interface RouteMatch {
  route: RouteName;
  /** The decoded `:id` segment, when the route has one (not yet checked against its shape). */
  id?: string;
}

/** Matchers derived from the patterns: `:id` is one non-empty segment; a trailing slash is allowed. */
const MATCHERS = (Object.entries(ROUTE_PATTERNS) as [RouteName, string][]).map(
  ([route, pattern]) => {
    const source = pattern === '/' ? '' : pattern.replace(':id', '([^/]+)');
    return { route, regex: new RegExp(`^${source}/?$`) };
  },
);

/** Which route a path is, or null when it is none of the app's (the not-found view). */
export function matchAppRoute(pathname: string): RouteMatch | null {
  for (const { route, regex } of MATCHERS) {
    const match = regex.exec(pathname);
    if (!match) continue;
    if (match[1] === undefined) return { route };
    const id = decodeOrNull(match[1]);
    return id === null ? null : { route, id };
  }
  return null;
}

export function isAppRoute(pathname: string): boolean {
  return matchAppRoute(pathname) !== null;
}

/** The views a path needs (none for an unknown path). */
export function viewsForPath(pathname: string): readonly AppView[] {
  const match = matchAppRoute(pathname);
  return match ? ROUTE_VIEWS[match.route] : [];
}

/** A list a view shows: which lookup feeds it and for which ID. */
export interface ListLookup {
  endpoint: EndpointName;
  id: string;
}

/**
 * The list a URL asks for, whatever the shape of its ID: the playlist of `/playlist/:id`,
 * `/playlist?list=` and `/watch?list=`, a channel's videos for `/channel/:id[/videos]` and its
 * playlists for `/channel/:id/playlists`. Null for a view without a list, or no ID at all.
 */
export function requestedList(pathname: string, search: URLSearchParams): ListLookup | null {
  const match = matchAppRoute(pathname);
  if (!match) return null;
  const lookup = ((): { endpoint: EndpointName; id: string | null | undefined } | null => {
    switch (match.route) {
      case 'playlist':
      case 'embedPlaylist':
        return { endpoint: 'playlist', id: match.id };
      case 'platformPlaylist':
      case 'platformWatch':
        return { endpoint: 'playlist', id: search.get('list') };
      case 'channel':
      case 'channelVideos':
      case 'embedChannel':
        return { endpoint: 'channel-videos', id: match.id };
      case 'channelPlaylists':
      case 'embedChannelPlaylists':
        return { endpoint: 'channel-playlists', id: match.id };
      case 'home':
      case 'following':
      case 'jobs':
        return null;
    }
  })();
  if (!lookup || typeof lookup.id !== 'string' || lookup.id === '') return null;
  return { endpoint: lookup.endpoint, id: lookup.id };
}

/** The list whose first page a URL shows: `requestedList`, when its ID has the right shape. */
export function listForUrl(pathname: string, search: URLSearchParams): ListLookup | null {
  const list = requestedList(pathname, search);
  if (!list) return null;
  const pattern = list.endpoint === 'playlist' ? PLAYLIST_ID_PATTERN : CHANNEL_ID_PATTERN;
  return pattern.test(list.id) ? list : null;
}

/** A 1-based position from `index=`; anything else is ignored rather than refused. */
export function readIndex(value: string | null): number | undefined {
  if (value === null || !/^\d{1,6}$/.test(value)) return undefined;
  const n = Number(value);
  return n >= 1 ? n : undefined;
}

/**
 * The explorer's own path for one of the platform's URL forms that names a playlist
 * (`/playlist?list=ID`, `/watch?v=VIDEO&list=ID[&index=N]`), or null for any other URL.
 */
export function platformLinkPath(pathname: string, search: URLSearchParams): string | null {
  const route = matchAppRoute(pathname)?.route;
  if (route !== 'platformPlaylist' && route !== 'platformWatch') return null;
  const list = listForUrl(pathname, search);
  if (!list) return null;
  const videoId = route === 'platformWatch' ? (search.get('v') ?? undefined) : undefined;
  return playlistPath(list.id, { index: readIndex(search.get('index')), videoId });
}

// Path builders: every link the app makes goes through one of these.

export function homePath(): string {
  return ROUTE_PATTERNS.home;
}

export function followingPath(): string {
  return ROUTE_PATTERNS.following;
}

export function jobsPath(): string {
  return ROUTE_PATTERNS.jobs;
}

/** `/playlist/ID`, opened at a 1-based position or at a video when given (the index wins). */
export function playlistPath(id: string, at: { index?: number; videoId?: string } = {}): string {
  const query = new URLSearchParams();
  if (at.index !== undefined) query.set('index', String(at.index));
  else if (at.videoId !== undefined && VIDEO_ID_PATTERN.test(at.videoId))
    query.set('v', at.videoId);
  const search = query.toString();
  const path = ROUTE_PATTERNS.playlist.replace(':id', encodeURIComponent(id));
  return search ? `${path}?${search}` : path;
}

/** Whether a path is an embed (its own frame policy, links that open outside the frame). */
export function isEmbedPath(pathname: string): boolean {
  return pathname.startsWith('/embed/');
}

/** `/channel/ID` for its videos (the default tab), `/channel/ID/playlists` for its playlists. */
export function channelPath(id: string, tab: ChannelTab = 'videos'): string {
  const pattern = tab === 'playlists' ? ROUTE_PATTERNS.channelPlaylists : ROUTE_PATTERNS.channel;
  return pattern.replace(':id', encodeURIComponent(id));
}
