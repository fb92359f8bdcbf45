import {
  useInfiniteQuery,
  useQuery,
  useQueryClient,
  type InfiniteData,
  type QueryKey,
  type UseInfiniteQueryResult,
} from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useState, type ReactNode } from 'react';
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
  const wide = useIsWide();
  return (
    <ChannelTabList
      id={id}
      query={query}
      queryKey={options.queryKey}
      restoreY={restoreY}
      rowHeight={CHANNEL_VIDEO_ROW_HEIGHT[wide ? 'wide' : 'narrow']}
      label="Videos"
      loadingText="Loading the channel’s videos…"
      emptyText="This channel has no public videos."
      endText={(count) => `End of the channel’s videos · ${plural(count, 'video', 'videos')}`}
      renderItem={(video) => <ChannelVideoRow video={video} wide={wide} />}
    />
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
  const wide = useIsWide();
  return (
    <ChannelTabList
      id={id}
      query={query}
      queryKey={options.queryKey}
      restoreY={restoreY}
      rowHeight={CHANNEL_PLAYLIST_ROW_HEIGHT[wide ? 'wide' : 'narrow']}
      label="Playlists"
      loadingText="Loading the channel’s playlists…"
      // Spec §4.3 rule 1: `{items: [], continuation: null}` is an answer, not an error.
      emptyText="This channel has no public playlists."
      endText={(count) =>
        `End of the channel’s playlists · ${plural(count, 'playlist', 'playlists')}`
      }
      renderItem={(playlist) => <ChannelPlaylistRow playlist={playlist} wide={wide} />}
    />
  );
}

interface ChannelTabListProps<T> {
  id: string;
  query: UseInfiniteQueryResult<InfiniteData<{ items: T[]; continuation: string | null }, unknown>>;
  queryKey: QueryKey;
  restoreY: number | undefined;
  rowHeight: number;
  label: string;
  loadingText: string;
  emptyText: string;
  endText: (count: number) => string;
  renderItem: (item: T) => ReactNode;
}

/** A channel tab's endless list and its states: failed, loading, empty, rows and footer. */
function ChannelTabList<T>({
  id,
  query,
  queryKey,
  restoreY,
  rowHeight,
  label,
  loadingText,
  emptyText,
  endText,
  renderItem,
}: ChannelTabListProps<T>) {
  const { items, loadMore, reload, footer } = usePagedList(query, queryKey, 'channel', id, endText);
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
  if (!query.data) return <SkeletonRows rowHeight={rowHeight} label={loadingText} />;
  if (items.length === 0 && !query.hasNextPage) return <EmptyState>{emptyText}</EmptyState>;
  return (
    <div className="pt-3">
      <WindowList
        label={label}
        count={items.length}
        rowHeight={rowHeight}
        restoreY={restoreY}
        onNearEnd={loadMore}
        renderRow={(position) => renderItem(items[position]!)}
      />
      {footer && <ListFooter state={footer} />}
    </div>
  );
}
