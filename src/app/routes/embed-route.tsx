import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import type { ChannelTab } from '../../shared/app-routes.ts';
import { demoEntriesOptions } from '../api/catalogue-queries.ts';
import { CHANNEL_TAB_LABEL } from '../components/channel-header.tsx';
import {
  CHANNEL_PLAYLIST_ROW_SIZE,
  ChannelPlaylistRow,
} from '../components/channel-playlist-row.tsx';
import { CHANNEL_VIDEO_ROW_SIZE, ChannelVideoRow } from '../components/channel-video-row.tsx';
import { PagedList } from '../components/paged-list.tsx';
import { PLAYLIST_ROW_SIZE, PlaylistRow } from '../components/playlist-row.tsx';
import { EAGER_ROWS } from '../components/row-layout.tsx';
import { usePagedList } from '../hooks/use-paged-list.ts';
import { useChannelTitle } from '../lib/channel-titles.ts';
import { plural } from '../lib/format.ts';

// The embeds' lists (`/embed/playlist/:id`, `/embed/channel/:id[/playlists]`): the same endless,
// virtualized list as the full views, server-rendered first rows included, under a one-line
// heading instead of the view's header, and without the deep-link seek, the "Whole list" panel
// and the recent views, which belong to the explorer itself (the footer opens it).

function EmbedHeading({ title, about }: { title: ReactNode; about: ReactNode }) {
  return (
    <div className="py-2">
      <h1 className="truncate text-base font-bold text-zinc-900 dark:text-zinc-50">{title}</h1>
      <p className="truncate text-xs text-zinc-600 dark:text-zinc-400">{about}</p>
    </div>
  );
}

export function EmbedPlaylistRoute() {
  const { id = '' } = useParams();
  const list = usePagedList(
    'playlist',
    id,
    (count) => `End of playlist · ${plural(count, 'video', 'videos')}`,
    (first) => first.info?.totalItems,
  );
  const info = list.pages?.[0]?.info;
  return (
    <div>
      <title>{`${info?.title ?? 'Playlist'} · Catalogue Explorer`}</title>
      <PagedList
        list={list}
        label={info ? `Videos in ${info.title}` : 'Videos'}
        rowSize={PLAYLIST_ROW_SIZE}
        setSize={info?.totalItems}
        loadingText="Loading the playlist…"
        emptyText="This playlist has no videos."
        problemHeadingLevel={1}
        header={
          <EmbedHeading
            title={info?.title ?? `Playlist ${id}`}
            about={
              info
                ? `${info.channelTitle} · ${plural(info.totalItems, 'video', 'videos')}`
                : 'Playlist'
            }
          />
        }
        renderRow={(row) => (
          <PlaylistRow
            item={list.items[row]!}
            playlistId={id}
            isTarget={false}
            eager={row < EAGER_ROWS}
          />
        )}
      />
    </div>
  );
}

export function EmbedChannelRoute({ tab }: { tab: ChannelTab }) {
  const { id = '' } = useParams();
  // The demo catalogue's entries name its channels, as in the full view.
  useQuery(demoEntriesOptions());
  const name = useChannelTitle(id) ?? id;
  return (
    <div>
      <title>{`${name} · ${CHANNEL_TAB_LABEL[tab]} · Catalogue Explorer`}</title>
      {tab === 'videos' ? (
        <ChannelVideos id={id} name={name} />
      ) : (
        <ChannelPlaylists id={id} name={name} />
      )}
    </div>
  );
}

function ChannelVideos({ id, name }: { id: string; name: string }) {
  const list = usePagedList(
    'channel-videos',
    id,
    (count) => `End of the channel’s videos · ${plural(count, 'video', 'videos')}`,
  );
  return (
    <PagedList
      list={list}
      label={CHANNEL_TAB_LABEL.videos}
      rowSize={CHANNEL_VIDEO_ROW_SIZE}
      loadingText="Loading the channel’s videos…"
      emptyText="This channel has no public videos."
      problemHeadingLevel={1}
      header={<EmbedHeading title={name} about="Videos, newest first" />}
      renderRow={(row) => <ChannelVideoRow video={list.items[row]!} eager={row < EAGER_ROWS} />}
    />
  );
}

function ChannelPlaylists({ id, name }: { id: string; name: string }) {
  const list = usePagedList(
    'channel-playlists',
    id,
    (count) => `End of the channel’s playlists · ${plural(count, 'playlist', 'playlists')}`,
  );
  return (
    <PagedList
      list={list}
      label={CHANNEL_TAB_LABEL.playlists}
      rowSize={CHANNEL_PLAYLIST_ROW_SIZE}
      loadingText="Loading the channel’s playlists…"
      emptyText="This channel has no public playlists."
      problemHeadingLevel={1}
      header={<EmbedHeading title={name} about="Playlists" />}
      renderRow={(row) => (
        <ChannelPlaylistRow playlist={list.items[row]!} eager={row < EAGER_ROWS} />
      )}
    />
  );
}
