import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { pagesOptions } from './catalogue-queries.ts';
import { ApiError } from './api-error.ts';
import { seedFirstPage } from './first-page.ts';

const PL = 'PLcatalogueDemoPlaylist0101items00';
const UC = 'UCcatalogueDemoChannel01';

const info = {
  id: PL,
  title: 'Field recordings',
  description: '',
  thumbnails: [],
  channelId: UC,
  channelTitle: 'Catalogue Demo Studios',
  totalItems: 0,
  views: 0,
  lastUpdated: 'Updated today',
  url: `https://www.youtube.com/playlist?list=${PL}`,
};
const playlistPage = { info, items: [], continuation: null };
const channelPage = { items: [], continuation: 'next' };

function seed(endpoint: string, id: string, page: unknown, pathname: string, search = '') {
  const queryClient = new QueryClient();
  const seeded = seedFirstPage(
    queryClient,
    { endpoint: endpoint as 'playlist', id, page },
    { pathname, search },
  );
  return { seeded, queryClient };
}

describe('seedFirstPage', () => {
  it('seeds the first page of the list the URL shows', () => {
    const { seeded, queryClient } = seed('playlist', PL, playlistPage, `/playlist/${PL}`);
    expect(seeded).toBe(true);
    expect(queryClient.getQueryData(pagesOptions('playlist', PL).queryKey)).toEqual({
      pages: [playlistPage],
      pageParams: [null],
    });
    expect(seed('playlist', PL, playlistPage, '/watch', `?v=x&list=${PL}`).seeded).toBe(true);
    const channel = seed('channel-playlists', UC, channelPage, `/channel/${UC}/playlists`);
    expect(channel.seeded).toBe(true);
    expect(
      channel.queryClient.getQueryData(pagesOptions('channel-playlists', UC).queryKey)?.pages,
    ).toEqual([channelPage]);
  });

  it('refuses a page for another list, another tab or another ID', () => {
    expect(seed('channel-videos', UC, channelPage, `/channel/${UC}/playlists`).seeded).toBe(false);
    expect(seed('channel-videos', UC, channelPage, `/channel/${UC}`).seeded).toBe(true);
    expect(seed('playlist', PL, playlistPage, `/playlist/${PL}x`).seeded).toBe(false);
    expect(seed('playlist', PL, playlistPage, '/').seeded).toBe(false);
  });

  it('refuses what its endpoint’s schema does not read, and a playlist page without info', () => {
    expect(seed('playlist', PL, { items: 'none' }, `/playlist/${PL}`).seeded).toBe(false);
    expect(seed('playlist', PL, { items: [], continuation: null }, `/playlist/${PL}`).seeded).toBe(
      false,
    );
  });

  it('seeds a definite no as the failed query of the list the URL shows, and of no other', () => {
    const problem = {
      type: 'https://catalogue-explorer.dev/problems/playlist-not-found',
      title: 'Playlist not found',
      status: 404,
      detail: 'No playlist with that ID',
      code: 'playlist_not_found',
    };
    const queryClient = new QueryClient();
    const missing = 'PLnoSuchPlaylistAnywhere0';
    const first = { endpoint: 'playlist' as const, id: missing, problem };
    expect(seedFirstPage(queryClient, first, { pathname: `/playlist/${PL}`, search: '' })).toBe(
      false,
    );
    expect(
      seedFirstPage(queryClient, first, { pathname: `/playlist/${missing}`, search: '' }),
    ).toBe(true);
    const state = queryClient.getQueryState(pagesOptions('playlist', missing).queryKey);
    expect(state?.status).toBe('error');
    expect(state?.error).toBeInstanceOf(ApiError);
    expect((state?.error as ApiError).code).toBe('playlist_not_found');
    expect((state?.error as ApiError).status).toBe(404);
  });

  it('seeds a failure with the wait it names, as a fetch would have met it', () => {
    const problem = {
      type: 'https://catalogue-explorer.dev/problems/upstream-unavailable',
      title: 'Service Unavailable',
      status: 503,
      detail: 'The catalogue cannot be reached right now.',
      code: 'upstream_unavailable',
      retryAfter: 5,
    };
    const queryClient = new QueryClient();
    const first = { endpoint: 'channel-videos' as const, id: UC, problem };
    expect(seedFirstPage(queryClient, first, { pathname: `/channel/${UC}`, search: '' })).toBe(
      true,
    );
    const error = queryClient.getQueryState(pagesOptions('channel-videos', UC).queryKey)?.error;
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(503);
    expect((error as ApiError).retryAfter).toBe(5);
  });
});
