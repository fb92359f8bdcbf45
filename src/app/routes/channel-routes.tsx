import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useState } from 'react';
import { Outlet, useLocation, useParams } from 'react-router';
import {
  channelPlaylistPagesOptions,
  channelVideoPagesOptions,
  demoEntriesOptions,
} from '../api/catalogue-queries.ts';
import { ChannelHeader } from '../components/channel-header.tsx';
import {
  CHANNEL_PLAYLIST_ROW_HEIGHT,
  ChannelPlaylistRow,
} from '../components/channel-playlist-row.tsx';
import { CHANNEL_VIDEO_ROW_HEIGHT, ChannelVideoRow } from '../components/channel-video-row.tsx';
import { EmptyState, ListFooter, ProblemView, SkeletonRows } from '../components/list-states.tsx';
import { WindowList } from '../components/window-list.tsx';
import { useEntryScroll } from '../hooks/use-entry-scroll.ts';
import { useIsWide } from '../hooks/use-media-query.ts';
import { usePagedList } from '../hooks/use-paged-list.ts';
import { useChannelTitle } from '../lib/channel-titles.ts';
import { plural } from '../lib/format.ts';
import { describeProblem } from '../lib/problem-text.ts';
import { recordRecentView } from '../lib/recent-views.ts';
import type { ChannelTab } from '../lib/view-target.ts';

// `/channel/:id`, `/channel/:id/videos` and `/channel/:id/playlists` (issue #4): one header
// with tabs, and each tab an endless list of its own.

function useChannelTab(): ChannelTab {
  return useLocation().pathname.replace(/\/+$/, '').endsWith('/playlists') ? 'playlists' : 'videos';
}

export function ChannelLayout() {
  const { id = '' } = useParams();
  // The demo catalogue's entries name its channels (and are remembered as they arrive), so a
  // deep link to a demo channel shows its name even in a fresh browser.
  useQuery(demoEntriesOptions());
  const title = useChannelTitle(id);
  const tab = useChannelTab();
  useEffect(() => {
    const path = `/channel/${encodeURIComponent(id)}${tab === 'playlists' ? '/playlists' : ''}`;
    recordRecentView({ kind: 'channel', id, title: title ?? id, path });
  }, [id, title, tab]);
  return (
    <div>
      <title>{`${title ?? id} · ${tab === 'playlists' ? 'Playlists' : 'Videos'} · Catalogue Explorer`}</title>
      <ChannelHeader id={id} title={title} tab={tab} />
      <Outlet />
    </div>
  );
}

/** Restore on back/forward when the pages are cached; otherwise start at the top. */
function useListEntryScroll(queryKey: readonly unknown[]) {
  const queryClient = useQueryClient();
  const restoreY = useEntryScroll();
  const [restoring] = useState(
    () => restoreY !== undefined && queryClient.getQueryData(queryKey) !== undefined,
  );
  useLayoutEffect(() => {
    if (!restoring) window.scrollTo(0, 0);
  }, [restoring]);
  return restoring ? restoreY : undefined;
}

export function ChannelVideosRoute() {
  const { id = '' } = useParams();
  const location = useLocation();
  return <ChannelVideos key={location.key} id={id} />;
}

function ChannelVideos({ id }: { id: string }) {
  const options = channelVideoPagesOptions(id);
  const restoreY = useListEntryScroll(options.queryKey);
  const query = useInfiniteQuery(options);
  const { items, loadMore, reload, footer } = usePagedList(
    query,
    options.queryKey,
    'channel',
    id,
    (count) => `End of the channel’s videos · ${plural(count, 'video', 'videos')}`,
  );
  const wide = useIsWide();
  const rowHeight = CHANNEL_VIDEO_ROW_HEIGHT[wide ? 'wide' : 'narrow'];

  if (query.isError && !query.data) {
    return (
      <ProblemView
        problem={describeProblem(query.error, 'channel', id)}
        since={query.errorUpdatedAt}
        onRetry={() => void query.refetch()}
        onReload={reload}
      />
    );
  }
  if (!query.data)
    return <SkeletonRows rowHeight={rowHeight} label="Loading the channel’s videos…" />;
  if (items.length === 0 && !query.hasNextPage)
    return <EmptyState>This channel has no public videos.</EmptyState>;
  return (
    <div className="pt-3">
      <WindowList
        label="Videos"
        count={items.length}
        rowHeight={rowHeight}
        restoreY={restoreY}
        onNearEnd={loadMore}
        renderRow={(position) => <ChannelVideoRow video={items[position]!} wide={wide} />}
      />
      {footer && <ListFooter state={footer} />}
    </div>
  );
}

export function ChannelPlaylistsRoute() {
  const { id = '' } = useParams();
  const location = useLocation();
  return <ChannelPlaylists key={location.key} id={id} />;
}

function ChannelPlaylists({ id }: { id: string }) {
  const options = channelPlaylistPagesOptions(id);
  const restoreY = useListEntryScroll(options.queryKey);
  const query = useInfiniteQuery(options);
  const { items, loadMore, reload, footer } = usePagedList(
    query,
    options.queryKey,
    'channel',
    id,
    (count) => `End of the channel’s playlists · ${plural(count, 'playlist', 'playlists')}`,
  );
  const wide = useIsWide();
  const rowHeight = CHANNEL_PLAYLIST_ROW_HEIGHT[wide ? 'wide' : 'narrow'];

  if (query.isError && !query.data) {
    return (
      <ProblemView
        problem={describeProblem(query.error, 'channel', id)}
        since={query.errorUpdatedAt}
        onRetry={() => void query.refetch()}
        onReload={reload}
      />
    );
  }
  if (!query.data)
    return <SkeletonRows rowHeight={rowHeight} label="Loading the channel’s playlists…" />;
  // Spec §4.3 rule 1: `{items: [], continuation: null}` is an answer, not an error.
  if (items.length === 0 && !query.hasNextPage)
    return <EmptyState>This channel has no public playlists.</EmptyState>;
  return (
    <div className="pt-3">
      <WindowList
        label="Playlists"
        count={items.length}
        rowHeight={rowHeight}
        restoreY={restoreY}
        onNearEnd={loadMore}
        renderRow={(position) => <ChannelPlaylistRow playlist={items[position]!} wide={wide} />}
      />
      {footer && <ListFooter state={footer} />}
    </div>
  );
}
