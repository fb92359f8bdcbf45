import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useParams } from 'react-router';
import type { ChannelTab } from '../../shared/app-routes.ts';
import type { ChannelPlaylist, ChannelVideo } from '../../shared/catalogue-schema.ts';
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

/** What each channel tab lists, and how a row of it looks (as the full view's tabs). */
const CHANNEL_TABS = {
  videos: {
    endpoint: 'channel-videos',
    noun: { one: 'video', many: 'videos' },
    about: 'Videos, newest first',
    rowSize: CHANNEL_VIDEO_ROW_SIZE,
    row: (item: ChannelVideo, eager: boolean) => <ChannelVideoRow video={item} eager={eager} />,
  },
  playlists: {
    endpoint: 'channel-playlists',
    noun: { one: 'playlist', many: 'playlists' },
    about: 'Playlists',
    rowSize: CHANNEL_PLAYLIST_ROW_SIZE,
    row: (item: ChannelPlaylist, eager: boolean) => (
      <ChannelPlaylistRow playlist={item} eager={eager} />
    ),
  },
} as const;

export function EmbedChannelRoute({ tab }: { tab: ChannelTab }) {
  const { id = '' } = useParams();
  // The demo catalogue's entries name its channels, as in the full view.
  useQuery(demoEntriesOptions());
  const name = useChannelTitle(id) ?? id;
  const { endpoint, noun, about, rowSize, row } = CHANNEL_TABS[tab];
  const list = usePagedList(
    endpoint,
    id,
    (count) => `End of the channel’s ${noun.many} · ${plural(count, noun.one, noun.many)}`,
  );
  return (
    <div>
      <title>{`${name} · ${CHANNEL_TAB_LABEL[tab]} · Catalogue Explorer`}</title>
      <PagedList
        list={list}
        label={CHANNEL_TAB_LABEL[tab]}
        rowSize={rowSize}
        loadingText={`Loading the channel’s ${noun.many}…`}
        emptyText={`This channel has no public ${noun.many}.`}
        problemHeadingLevel={1}
        header={<EmbedHeading title={name} about={about} />}
        renderRow={(position) =>
          // The items are the tab's own (its endpoint's pages): one row function per tab.
          (row as (item: unknown, eager: boolean) => ReactNode)(
            list.items[position],
            position < EAGER_ROWS,
          )
        }
      />
    </div>
  );
}
