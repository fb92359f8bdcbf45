import { endpoints, type EndpointName } from '../shared/endpoints.ts';
import { INITIAL_PAGE_ELEMENT_ID, INITIAL_PAGE_PLACEHOLDER } from '../shared/explorer-api.ts';
import type { Lookup } from './validate-lookup.ts';

// Deep links ship their first page inside the HTML (issue #3; shape: initialPageSchema in
// shared/explorer-api.ts), so the first rows render without a second round trip. This module
// reads which list a URL shows and writes the data block; create-server-app.ts fetches the
// page through the same cache, merging and quota path as the API.

function segment(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/**
 * The first page a URL shows, if its ID is valid: `/playlist/:id`, `/channel/:id` (videos),
 * `/channel/:id/videos`, `/channel/:id/playlists`, and the platform's own forms
 * `/playlist?list=ID` and `/watch?v=…&list=ID`.
 */
export function initialPageLookup(pathname: string, search: URLSearchParams): Lookup | null {
  let endpoint: EndpointName;
  let id: string | null;
  let match: RegExpMatchArray | null;
  if ((match = pathname.match(/^\/playlist\/([^/]+)\/?$/))) {
    endpoint = 'playlist';
    id = segment(match[1] as string);
  } else if ((match = pathname.match(/^\/channel\/([^/]+)(?:\/(videos|playlists))?\/?$/))) {
    endpoint = match[2] === 'playlists' ? 'channel-playlists' : 'channel-videos';
    id = segment(match[1] as string);
  } else if (/^\/(playlist|watch)\/?$/.test(pathname)) {
    endpoint = 'playlist';
    id = search.get('list');
  } else {
    return null;
  }
  if (id === null || !endpoints[endpoint].idSchema.safeParse(id).success) return null;
  return { endpoint, id, continuation: undefined };
}

/**
 * The data block for `page` (the page's JSON bytes as served by the API). Every `<` becomes
 * `\u003c`, which JSON reads as the same character, so nothing in the data (a video titled
 * `</script><script>…`) can close the element or open a comment.
 */
export function initialPageScript(lookup: Lookup, page: Buffer): string {
  const json = `{"endpoint":${JSON.stringify(lookup.endpoint)},"id":${JSON.stringify(lookup.id)},"page":${page.toString('utf8')}}`;
  return `<script type="application/json" id="${INITIAL_PAGE_ELEMENT_ID}">${json.replaceAll('<', '\\u003c')}</script>`;
}

/** Puts the block where the app's index.html has its placeholder. */
export function injectInitialPage(html: string, script: string): string {
  // A function replacement: `$&` and friends in the data must not be interpreted.
  return html.replace(INITIAL_PAGE_PLACEHOLDER, () => script);
}
