import { endpointNames, endpoints, type EndpointName } from '../../shared/endpoints.ts';
import {
  CHANNEL_ID_PATTERN,
  CONTINUATION_MAX_LENGTH,
  PLAYLIST_ID_PATTERN,
} from '../../shared/id-patterns.ts';
import type { WireRequest } from './fuzz-case.ts';

// What the explorer should do with a request, worked out from the interface as documented
// (README, docs/catalogue-api.md) rather than from the explorer's own code, so that a mistake
// there is not repeated here: which requests fall under /api, which reach a lookup and whether
// its input is valid, and which may cost an upstream call at all. Where the URL could be read
// two ways, the oracle allows the upstream call ("may") and never demands it.

export interface Expectation {
  /** The URL as a browser's URL parser reads the target; null when it is not one. */
  url: URL | null;
  /** The path is /api or under /api/: every error must be a problem document. */
  api: boolean;
  /** GET or HEAD, the only methods the explorer serves. */
  read: boolean;
  /** The lookup the request reaches for certain, with the verdict on its query. */
  lookup: { endpoint: EndpointName; valid: boolean } | null;
  /** Whether the explorer may call the upstream for it (never required: the cache may answer). */
  mayCallUpstream: boolean;
}

const ENDPOINT_BY_PATH = new Map<string, EndpointName>(
  endpointNames.map((name) => [endpoints[name].path, name]),
);

function decodeComponent(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

function decodePath(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

function parseTarget(target: string): URL | null {
  if (/^https?:\/\//i.test(target)) return URL.parse(target);
  if (!target.startsWith('/')) return null;
  return URL.parse(target, 'http://fuzz.invalid');
}

const ID_PATTERN: Record<EndpointName, RegExp> = {
  playlist: PLAYLIST_ID_PATTERN,
  'channel-videos': CHANNEL_ID_PATTERN,
  'channel-playlists': CHANNEL_ID_PATTERN,
};

/**
 * A lookup's query as the interface defines it: `id` (required, of the endpoint's shape) and
 * `continuation` (optional; empty means the first page; else 1 to 4,096 printable ASCII
 * characters), each at most once, nothing else; percent-decoded, with `+` read as itself.
 */
export function validLookupQuery(endpoint: EndpointName, rawQuery: string): boolean {
  const seen = new Map<string, string>();
  for (const part of rawQuery.split('&')) {
    if (part === '') continue;
    const equals = part.indexOf('=');
    const name = decodeComponent(equals === -1 ? part : part.slice(0, equals));
    const value = decodeComponent(equals === -1 ? '' : part.slice(equals + 1));
    if (name === null || value === null) return false;
    if (name !== 'id' && name !== 'continuation') return false;
    if (seen.has(name)) return false;
    seen.set(name, value);
  }
  const id = seen.get('id');
  if (id === undefined || !ID_PATTERN[endpoint].test(id)) return false;
  const continuation = seen.get('continuation') ?? '';
  return (
    continuation === '' ||
    (continuation.length <= CONTINUATION_MAX_LENGTH && /^[\x21-\x7E]+$/.test(continuation))
  );
}

const LIST_ROUTES: Array<[RegExp, RegExp]> = [
  [/^\/playlist\/([^/]+)\/?$/, PLAYLIST_ID_PATTERN],
  [/^\/channel\/([^/]+)(?:\/videos|\/playlists)?\/?$/, CHANNEL_ID_PATTERN],
];

/** An app page whose view shows a list with an ID of the right shape: its first page is fetched. */
function showsList(path: string): boolean {
  for (const [route, pattern] of LIST_ROUTES) {
    const match = route.exec(path);
    const id = match?.[1] === undefined ? null : decodeComponent(match[1]);
    if (id !== null && pattern.test(id)) return true;
  }
  return false;
}

export function expectationFor(request: WireRequest): Expectation {
  const url = parseTarget(request.target);
  const read = request.method === 'GET' || request.method === 'HEAD';
  if (url === null) return { url, api: false, read, lookup: null, mayCallUpstream: false };
  const path = url.pathname;
  // Routers may match the path percent-decoded (`/api/v1/%70laylist`): either reading counts.
  const paths = [path, decodePath(path)];
  const api = paths.some((p) => p === '/api' || p.startsWith('/api/'));
  const endpoint = paths.map((p) => ENDPOINT_BY_PATH.get(p)).find((e) => e !== undefined);
  const lookup =
    endpoint === undefined || !read
      ? null
      : { endpoint, valid: validLookupQuery(endpoint, url.search.slice(1)) };
  const mayCallUpstream = read && (lookup?.valid === true || paths.some(showsList));
  return { url, api, read, lookup, mayCallUpstream };
}
