import { infiniteQueryOptions, queryOptions } from '@tanstack/react-query';
import { rememberChannelTitles, rememberPlaylistPageChannels } from '../lib/channel-titles.ts';
import {
  fetchChannelPlaylistsPage,
  fetchChannelVideosPage,
  fetchDemoEntries,
  fetchPlaylistPage,
} from './api-client.ts';
import { nextContinuation } from './continuation-guard.ts';

// Query-options factories, next to the client (house style). Keys go from generic to specific
// and every view's list has its own key, so a late answer can only land in its own list.
// The page parameter is the continuation (spec §2.6); null asks for the first page.

export const catalogueKeys = {
  all: ['catalogue'] as const,
  playlist: (id: string) => [...catalogueKeys.all, 'playlist', id] as const,
  playlistPages: (id: string) => [...catalogueKeys.playlist(id), 'pages'] as const,
  channel: (id: string) => [...catalogueKeys.all, 'channel', id] as const,
  channelVideoPages: (id: string) => [...catalogueKeys.channel(id), 'videos', 'pages'] as const,
  channelPlaylistPages: (id: string) =>
    [...catalogueKeys.channel(id), 'playlists', 'pages'] as const,
  demoEntries: () => ['demo-entries'] as const,
};

const firstPage = null as string | null;

export function playlistPagesOptions(id: string) {
  return infiniteQueryOptions({
    queryKey: catalogueKeys.playlistPages(id),
    queryFn: async ({ pageParam, signal }) => {
      const page = await fetchPlaylistPage(id, pageParam, signal);
      rememberPlaylistPageChannels(page);
      return page;
    },
    initialPageParam: firstPage,
    getNextPageParam: (last, _pages, _lastParam, params) =>
      nextContinuation(last.continuation, params),
  });
}

export function channelVideoPagesOptions(id: string) {
  return infiniteQueryOptions({
    queryKey: catalogueKeys.channelVideoPages(id),
    queryFn: ({ pageParam, signal }) => fetchChannelVideosPage(id, pageParam, signal),
    initialPageParam: firstPage,
    getNextPageParam: (last, _pages, _lastParam, params) =>
      nextContinuation(last.continuation, params),
  });
}

export function channelPlaylistPagesOptions(id: string) {
  return infiniteQueryOptions({
    queryKey: catalogueKeys.channelPlaylistPages(id),
    queryFn: ({ pageParam, signal }) => fetchChannelPlaylistsPage(id, pageParam, signal),
    initialPageParam: firstPage,
    getNextPageParam: (last, _pages, _lastParam, params) =>
      nextContinuation(last.continuation, params),
  });
}

export function demoEntriesOptions() {
  return queryOptions({
    queryKey: catalogueKeys.demoEntries(),
    queryFn: async ({ signal }) => {
      const { entries } = await fetchDemoEntries(signal);
      rememberChannelTitles(
        entries.filter((e) => e.kind === 'channel').map((e) => [e.id, e.title] as const),
      );
      return entries;
    },
    // 404 means "not the embedded catalogue": nothing to show, nothing to retry.
    retry: false,
    staleTime: Infinity,
  });
}
