import type { QueryClient } from '@tanstack/react-query';
import { endpoints } from '../../shared/endpoints.ts';
import {
  INITIAL_PAGE_ELEMENT_ID,
  initialPageSchema,
  type InitialPage,
} from '../../shared/explorer-api.ts';
import { rememberPlaylistPageChannels } from '../lib/channel-titles.ts';
import { readPath } from '../lib/view-target.ts';
import {
  channelPlaylistPagesOptions,
  channelVideoPagesOptions,
  playlistPagesOptions,
} from './catalogue-queries.ts';

// A deep link's first page arrives inside the HTML (`<script type="application/json"
// id="initial-page">`, shared/explorer-api.ts), so the first rows render without waiting for a
// second round trip. It seeds the matching infinite query, and only when it matches the route.

/** Reads the data block; called once, at boot, so it can never seed a later view. */
export function takeInitialPage(doc: Document = document): InitialPage | null {
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

/** Seeds the first page of the list the URL shows; returns whether it did. */
export function seedInitialPage(
  queryClient: QueryClient,
  initial: InitialPage,
  location: { pathname: string; search: string },
): boolean {
  const read = readPath(location.pathname, location.search);
  if (!read?.ok) return false;
  const target = read.target;
  if (target.id !== initial.id) return false;

  if (initial.endpoint === 'playlist' && target.kind === 'playlist') {
    const page = endpoints.playlist.pageSchema.safeParse(initial.page);
    // A first page always carries `info` (spec §4.1); without it this is not a first page.
    if (!page.success || !page.data.info) return false;
    rememberPlaylistPageChannels(page.data);
    queryClient.setQueryData(playlistPagesOptions(target.id).queryKey, {
      pages: [page.data],
      pageParams: [null],
    });
    return true;
  }
  if (
    initial.endpoint === 'channel-videos' &&
    target.kind === 'channel' &&
    target.tab === 'videos'
  ) {
    const page = endpoints['channel-videos'].pageSchema.safeParse(initial.page);
    if (!page.success) return false;
    queryClient.setQueryData(channelVideoPagesOptions(target.id).queryKey, {
      pages: [page.data],
      pageParams: [null],
    });
    return true;
  }
  if (
    initial.endpoint === 'channel-playlists' &&
    target.kind === 'channel' &&
    target.tab === 'playlists'
  ) {
    const page = endpoints['channel-playlists'].pageSchema.safeParse(initial.page);
    if (!page.success) return false;
    queryClient.setQueryData(channelPlaylistPagesOptions(target.id).queryKey, {
      pages: [page.data],
      pageParams: [null],
    });
    return true;
  }
  return false;
}

/** Boot-time entry point: seeds the cache from the document's data block, if it matches. */
export function seedFromDocument(queryClient: QueryClient): void {
  const initial = takeInitialPage();
  if (initial) seedInitialPage(queryClient, initial, window.location);
}
