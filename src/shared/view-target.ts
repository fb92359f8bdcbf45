import {
  channelPath,
  matchAppRoute,
  playlistPath,
  type ChannelTab,
  readIndex,
  type RouteMatch,
} from './app-routes.ts';
import type { MessageDescriptor } from '@lingui/core';
import { CHANNEL_ID_PATTERN, PLAYLIST_ID_PATTERN, VIDEO_ID_PATTERN } from './id-patterns.ts';

// Reading what a user pastes into the home page's box: a bare ID, a platform link, or one of
// the explorer's own links. The platform's URL forms also work with our host swapped in
// (`/playlist?list=ID`, `/watch?v=VIDEO&list=ID&index=N`), so they are app routes too. What
// cannot be opened is said as a message of the catalog (views.json), for the view to put in the
// reader's language.

export type ViewTarget =
  | { kind: 'playlist'; id: string; index?: number; videoId?: string }
  | { kind: 'channel'; id: string; tab: ChannelTab };

/** Why it cannot be opened: a message ID and the values it names (what the reader pasted). */
export type TargetMessage = MessageDescriptor & { values?: Record<string, string> };

export type ReadResult = { ok: true; target: ViewTarget } | { ok: false; message: TargetMessage };

const PLATFORM_HOSTS = new Set([
  'youtube.com',
  'www.youtube.com',
  'm.youtube.com',
  'music.youtube.com',
  'youtube-nocookie.com',
  'www.youtube-nocookie.com',
]);
const SHORT_HOSTS = new Set(['youtu.be', 'www.youtu.be']);

const SINGLE_VIDEO = 'target.singleVideo';

const fail = (id: TargetMessage['id'], values?: Record<string, string>): ReadResult => ({
  ok: false,
  message: values === undefined ? { id } : { id, values },
});
const ok = (target: ViewTarget): ReadResult => ({ ok: true, target });

function playlistFromQuery(query: URLSearchParams, videoId?: string | null): ReadResult {
  const list = query.get('list');
  if (list === null || list === '') {
    return fail(videoId ? SINGLE_VIDEO : 'target.noList');
  }
  if (list === 'WL' || list === 'LL' || list === 'LM') {
    return fail('target.privateList');
  }
  if (!PLAYLIST_ID_PATTERN.test(list)) return fail('target.notPlaylistId', { id: list });
  const index = readIndex(query.get('index'));
  const video = videoId && VIDEO_ID_PATTERN.test(videoId) ? videoId : undefined;
  return ok({ kind: 'playlist', id: list, index, videoId: video });
}

function playlistById(id: string, query: URLSearchParams): ReadResult {
  if (!PLAYLIST_ID_PATTERN.test(id)) return fail('target.notPlaylistId', { id });
  return ok({ kind: 'playlist', id, index: readIndex(query.get('index')) });
}

function channelById(id: string, tab: ChannelTab): ReadResult {
  if (!CHANNEL_ID_PATTERN.test(id)) return fail('target.notChannelId', { id });
  return ok({ kind: 'channel', id, tab });
}

/** The platform's channel tabs the explorer has no view of: they open the channel's videos. */
const PLATFORM_ONLY_CHANNEL_TAB = /^(\/channel\/[^/]+)\/(?:featured|streams|shorts)\/?$/;

function readRoute(match: RouteMatch, query: URLSearchParams): ReadResult | null {
  switch (match.route) {
    case 'home':
    case 'following':
    case 'jobs':
      return null;
    case 'platformPlaylist':
      return playlistFromQuery(query);
    case 'platformWatch':
      return playlistFromQuery(query, query.get('v'));
    case 'playlist':
    case 'embedPlaylist':
      return playlistById(match.id ?? '', query);
    case 'channel':
    case 'channelVideos':
    case 'embedChannel':
      return channelById(match.id ?? '', 'videos');
    case 'channelPlaylists':
    case 'embedChannelPlaylists':
      return channelById(match.id ?? '', 'playlists');
  }
}

/**
 * Reads a path and query string in the explorer's own forms (its routes, which include the
 * platform's `/playlist?list=` and `/watch?v=&list=&index=`) or the platform's other channel
 * and video paths. Returns null when the path is none of these.
 */
export function readPath(pathname: string, search: string): ReadResult | null {
  const platformTab = PLATFORM_ONLY_CHANNEL_TAB.exec(pathname);
  const match = matchAppRoute(platformTab?.[1] ?? pathname);
  if (match) return readRoute(match, new URLSearchParams(search));
  if (/^\/(@|c\/|user\/)/.test(pathname)) {
    return fail('target.handle');
  }
  if (/^\/(shorts|live|embed)\//.test(pathname)) {
    return fail(SINGLE_VIDEO);
  }
  return null;
}

function toUrl(text: string): URL | null {
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`;
  try {
    return new URL(withScheme);
  } catch {
    return null;
  }
}

/**
 * What the home page's box accepts: a playlist ID, a channel ID, or a pasted platform URL
 * (youtube.com, m.youtube.com, youtu.be) or explorer URL (`ownHost`).
 */
export function readUserInput(raw: string, ownHost?: string): ReadResult {
  const text = raw.trim();
  if (text === '') return fail('target.empty');
  // Channel IDs also fit the looser playlist shape, so they are tested first.
  if (CHANNEL_ID_PATTERN.test(text)) return ok({ kind: 'channel', id: text, tab: 'videos' });
  if (PLAYLIST_ID_PATTERN.test(text)) return ok({ kind: 'playlist', id: text });
  if (VIDEO_ID_PATTERN.test(text)) {
    return fail('target.videoId');
  }
  const looksLikeUrl = /[./]/.test(text) && !/\s/.test(text);
  const url = looksLikeUrl ? toUrl(text) : null;
  if (!url || !/^https?:$/.test(url.protocol)) {
    return fail('target.unreadable', { text: truncate(text) });
  }
  const host = url.hostname.toLowerCase();
  if (SHORT_HOSTS.has(host)) {
    // youtu.be/VIDEO?list=ID&index=N
    const video = url.pathname.slice(1).split('/')[0] ?? '';
    return playlistFromQuery(url.searchParams, video);
  }
  const known = PLATFORM_HOSTS.has(host) || (ownHost !== undefined && url.host === ownHost);
  if (!known) return fail('target.otherSite', { host });
  return readPath(url.pathname, url.search) ?? fail('target.notAList');
}

function truncate(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}…` : text;
}

/** The explorer path that shows a target. */
export function pathFor(target: ViewTarget): string {
  return target.kind === 'channel'
    ? channelPath(target.id, target.tab)
    : playlistPath(target.id, { index: target.index, videoId: target.videoId });
}
