import type { IncomingMessage, RequestListener } from 'node:http';
import { matchAppRoute } from '../../shared/app-routes.ts';
import { endpoints } from '../../shared/endpoints.ts';
import { PLAYLIST_ID_PATTERN } from '../../shared/id-patterns.ts';
import { requestClient } from '../http/client-address.ts';
import { lookupFromQuery } from '../http/validate-lookup.ts';
import type { Lookup } from '../upstream/lookup.ts';
import type { ChainWarmer } from './chain-warmer.ts';
import { isPersonRequest } from '../http/person-request.ts';

// The requests that tell the warmer someone is reading a playlist (chain-warmer.ts), picked out
// in front of everything else on node:http, so that pages the fast path answers from the cache
// count too: a person's navigation to a playlist's view, and the app's own requests for any of
// its pages (person-request.ts says who is a person). The warmer hears of a request once it has
// been answered, and only of one answered with the page (200, or 304 for a copy the browser
// holds): a request the per-client allowance refused (429), a list the upstream does not know
// (404), a failure, start nothing. A view is answered 200 even when its first page could not
// be had in time; the warmer then finds no first page in the cache and starts nothing either.

interface PlaylistRead {
  id: string;
  /** The page asked for; undefined for the playlist's view. */
  lookup?: Lookup;
}

const LOOKUP_PATH = endpoints.playlist.path;

/** The playlist a person's GET reads, if it is one. */
function playlistRead(req: IncomingMessage): PlaylistRead | undefined {
  if (req.method !== 'GET') return undefined;
  const url = req.url ?? '';
  const mark = url.indexOf('?');
  const path = mark === -1 ? url : url.slice(0, mark);
  if (path === LOOKUP_PATH) {
    if (!isPersonRequest(req.method, req.headers, 'lookup')) return undefined;
    const checked = lookupFromQuery('playlist', mark === -1 ? '' : url.slice(mark + 1));
    return checked.ok ? { id: checked.lookup.id, lookup: checked.lookup } : undefined;
  }
  if (!path.startsWith('/playlist/')) return undefined;
  const match = matchAppRoute(path);
  if (match?.route !== 'playlist' || match.id === undefined) return undefined;
  if (!PLAYLIST_ID_PATTERN.test(match.id)) return undefined;
  return isPersonRequest(req.method, req.headers, 'view') ? { id: match.id } : undefined;
}

export function withChainWarming(
  listener: RequestListener,
  options: { warmer: Pick<ChainWarmer, 'read'>; trustProxy: boolean },
): RequestListener {
  const { warmer, trustProxy } = options;
  return (req, res) => {
    const read = playlistRead(req);
    if (read !== undefined) {
      res.once('finish', () => {
        if (res.statusCode !== 200 && res.statusCode !== 304) return;
        warmer.read(read.id, requestClient(req, trustProxy), read.lookup);
      });
    }
    listener(req, res);
  };
}
