import type {
  ChannelPlaylistsPage,
  ChannelVideosPage,
  PlaylistPage,
} from '../shared/catalogue-schema.ts';
import type { EndpointName } from '../shared/endpoints.ts';
import { CHANNEL_ID_PATTERN, PLAYLIST_ID_PATTERN } from '../shared/id-patterns.ts';
import type { ProblemCode } from '../shared/problem.ts';
import type { CatalogueStore } from './catalogue-db.ts';
import type { ContinuationCodec, Keyset } from './continuation.ts';
import { agoText, lastUpdatedText, snippet, viewsText } from './display-text.ts';
import { thumbnailsFor } from './thumbnails.ts';

// The three lookups of spec §4, from store rows to the page shapes of spec §3. Errors come
// back as values so that the HTTP layer alone decides how they are written.

/** Spec §4.1 allows up to 100; every playlist page but the last holds exactly that many. */
export const PLAYLIST_PAGE_SIZE = 100;
/** Spec §4.2 and §4.3 say about 30; this service always sends 30 but on the last page. */
export const CHANNEL_PAGE_SIZE = 30;

export type LookupFailure = { ok: false; code: ProblemCode; detail: string };
export type LookupResult<Page> = { ok: true; page: Page } | LookupFailure;

export interface LookupRequest {
  id: string;
  continuation: string | undefined;
  /** Prefix of thumbnail URLs: an origin, or '' for root-relative URLs. */
  thumbnailBaseUrl: string;
  /** Unix milliseconds; display strings such as "3 years ago" are relative to it. */
  now: number;
}

const PLATFORM = 'https://www.youtube.com';

const fail = (code: ProblemCode, detail: string): LookupFailure => ({ ok: false, code, detail });

export function createLookups(store: CatalogueStore, codec: ContinuationCodec) {
  /** Reads the keyset position out of a continuation, or explains why it cannot. */
  const position = (
    endpoint: EndpointName,
    request: LookupRequest,
    valid: (keyset: Keyset) => boolean,
  ): { ok: true; keyset: Keyset | null } | LookupFailure => {
    if (request.continuation === undefined) return { ok: true, keyset: null };
    const check = codec.decode(request.continuation, endpoint, request.id);
    if (!check.ok) return fail('invalid_continuation', `The continuation ${check.reason}.`);
    if (!valid(check.keyset))
      return fail('invalid_continuation', 'The continuation is not valid here.');
    return { ok: true, keyset: check.keyset };
  };

  const channelCheck = (id: string): LookupFailure | null => {
    if (!CHANNEL_ID_PATTERN.test(id)) {
      return fail('invalid_id', `"${id}" is not a channel ID (UC followed by 22 characters).`);
    }
    // Spec §5.1: a well-formed ID of a channel that does not exist is a 404, so the app can
    // say "not found" rather than "bad request".
    if (!store.channelExists(id)) return fail('channel_not_found', `No channel has the ID ${id}.`);
    return null;
  };

  /** `rows` as a page's items, and the continuation past the last when there are more. */
  const pageOf = <Row, Item>(
    endpoint: EndpointName,
    id: string,
    { rows, hasMore }: { rows: Row[]; hasMore: boolean },
    item: (row: Row) => Item,
    keysetOf: (last: Row) => Keyset,
  ) => {
    const last = rows.at(-1);
    return {
      items: rows.map(item),
      continuation:
        hasMore && last !== undefined ? codec.encode(endpoint, id, keysetOf(last)) : null,
    };
  };

  return {
    playlist(request: LookupRequest): LookupResult<PlaylistPage> {
      const { id, thumbnailBaseUrl, now } = request;
      // §4.1 rule 1: an invalid playlist ID is a 404, whether malformed or unknown.
      const playlist = PLAYLIST_ID_PATTERN.test(id) ? store.playlist(id) : undefined;
      if (!playlist) return fail('playlist_not_found', `No playlist has the ID ${id}.`);
      const at = position('playlist', request, (k) => k.length === 1 && Number.isInteger(k[0]));
      if (!at.ok) return at;
      const after = at.keyset ? (at.keyset[0] as number) : 0;
      const found = store.playlistItems(id, after, PLAYLIST_PAGE_SIZE);
      // §4.1: `info` on the first page only (JSON leaves out an undefined field).
      const info = at.keyset
        ? undefined
        : {
            id: playlist.id,
            title: playlist.title,
            description: playlist.description,
            thumbnails: thumbnailsFor(thumbnailBaseUrl, 'pl', playlist.id),
            channelId: playlist.channelId,
            channelTitle: playlist.channelTitle,
            totalItems: playlist.itemCount,
            views: playlist.viewCount,
            lastUpdated: lastUpdatedText(playlist.updatedAt, now),
            url: `${PLATFORM}/playlist?list=${playlist.id}`,
          };
      return {
        ok: true,
        page: {
          info,
          ...pageOf(
            'playlist',
            id,
            found,
            (row) => ({
              index: row.position,
              id: row.videoId,
              title: row.title,
              thumbnails: thumbnailsFor(thumbnailBaseUrl, 'vi', row.videoId),
              channelId: row.channelId,
              channelTitle: row.channelTitle,
              viewsText: viewsText(row.viewCount),
              publishedText: agoText(row.publishedAt, now),
              duration: row.duration,
            }),
            (last) => [last.position],
          ),
        },
      };
    },

    channelVideos(request: LookupRequest): LookupResult<ChannelVideosPage> {
      const { id, thumbnailBaseUrl, now } = request;
      const invalid = channelCheck(id);
      if (invalid) return invalid;
      const at = position(
        'channel-videos',
        request,
        (k) => k.length === 2 && Number.isInteger(k[0]) && typeof k[1] === 'string',
      );
      if (!at.ok) return at;
      const after = at.keyset ? ([at.keyset[0], at.keyset[1]] as [number, string]) : null;
      return {
        ok: true,
        page: pageOf(
          'channel-videos',
          id,
          store.channelVideos(id, after, CHANNEL_PAGE_SIZE),
          (row) => ({
            id: row.id,
            title: row.title,
            descriptionSnippet: snippet(row.description),
            thumbnails: thumbnailsFor(thumbnailBaseUrl, 'vi', row.id),
            duration: row.duration,
            viewCount: row.viewCount,
            publishedText: row.publishedKnown ? agoText(row.publishedAt, now) : null,
          }),
          (last) => [last.publishedAt, last.id],
        ),
      };
    },

    channelPlaylists(request: LookupRequest): LookupResult<ChannelPlaylistsPage> {
      const { id, thumbnailBaseUrl } = request;
      const invalid = channelCheck(id);
      if (invalid) return invalid;
      const at = position(
        'channel-playlists',
        request,
        (k) => k.length === 1 && Number.isInteger(k[0]),
      );
      if (!at.ok) return at;
      const after = at.keyset ? (at.keyset[0] as number) : -1;
      // §4.3 rule 1: a channel with no playlists answers `items: []` and a null continuation.
      return {
        ok: true,
        page: pageOf(
          'channel-playlists',
          id,
          store.channelPlaylists(id, after, CHANNEL_PAGE_SIZE),
          (row) => ({
            id: row.id,
            title: row.title,
            thumbnails: thumbnailsFor(thumbnailBaseUrl, 'pl', row.id),
            url: `${PLATFORM}/playlist?list=${row.id}`,
            videoCount: row.itemCount,
          }),
          (last) => [last.ordinal],
        ),
      };
    },
  };
}
