import { listForUrl } from '../shared/app-routes.ts';
import { INITIAL_PAGE_ELEMENT_ID, INITIAL_PAGE_PLACEHOLDER } from '../shared/explorer-api.ts';
import type { Lookup } from './validate-lookup.ts';

// Deep links ship their first page inside the HTML (shape: initialPageSchema in
// shared/explorer-api.ts), so the first rows render without a second round trip. This module
// says which page a URL shows (the app's routes are read from shared/app-routes.ts) and writes
// the data block; routes/app-pages.ts fetches the page through the same cache, merging and
// quota path as the API.

/**
 * The first page a URL shows, if its ID is valid: the first page of the list that
 * `listForUrl` names for it.
 */
export function initialPageLookup(pathname: string, search: URLSearchParams): Lookup | null {
  const list = listForUrl(pathname, search);
  return list === null ? null : { endpoint: list.endpoint, id: list.id, continuation: undefined };
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
