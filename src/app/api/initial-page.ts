import type { QueryClient } from '@tanstack/react-query';
import { listForUrl } from '../../shared/app-routes.ts';
import type { EndpointName, EndpointPage } from '../../shared/endpoints.ts';
import {
  INITIAL_PAGE_ELEMENT_ID,
  initialPageSchema,
  type InitialPage,
} from '../../shared/explorer-api.ts';
import { parsePage } from './api-client.ts';
import { notePage, pagesOptions } from './catalogue-queries.ts';

// A deep link's first page arrives inside the HTML (`<script type="application/json"
// id="initial-page">`, shared/explorer-api.ts), so the first rows render without waiting for a
// second round trip. It seeds the matching infinite query, and only when it matches the route.

/** Reads the data block; called once, at boot, so it can never seed a later view. */
function takeInitialPage(doc: Document = document): InitialPage | null {
  const element = doc.getElementById(INITIAL_PAGE_ELEMENT_ID);
  if (!element) return null;
  const text = element.textContent ?? '';
  try {
    const parsed = initialPageSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Whether a page can stand first in its list. A playlist's first page always carries `info` (spec §4.1). */
const canBeFirst: { [E in EndpointName]?: (page: EndpointPage<E>) => boolean } = {
  playlist: (page) => page.info !== undefined,
};

function seedFirstPage<E extends EndpointName>(
  queryClient: QueryClient,
  endpoint: E,
  id: string,
  raw: unknown,
): boolean {
  const page = parsePage(endpoint, raw);
  if (page === null || canBeFirst[endpoint]?.(page) === false) return false;
  notePage(endpoint, page);
  queryClient.setQueryData(pagesOptions(endpoint, id).queryKey, {
    pages: [page],
    pageParams: [null],
  });
  return true;
}

/** Seeds the first page of the list the URL shows; returns whether it did. */
export function seedInitialPage(
  queryClient: QueryClient,
  initial: InitialPage,
  location: { pathname: string; search: string },
): boolean {
  // The same reading of the URL as the server's, which chose the page to embed.
  const list = listForUrl(location.pathname, new URLSearchParams(location.search));
  if (!list || list.endpoint !== initial.endpoint || list.id !== initial.id) return false;
  return seedFirstPage(queryClient, list.endpoint, list.id, initial.page);
}

/** Boot-time entry point: seeds the cache from the document's data block, if it matches. */
export function seedFromDocument(queryClient: QueryClient): void {
  const initial = takeInitialPage();
  if (initial) seedInitialPage(queryClient, initial, window.location);
}
