import { Trans } from '@lingui/react';
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
import { PlaylistRow } from '../components/playlist-row.tsx';
import { usePlaylistList } from '../hooks/use-playlist-list.ts';
import { EAGER_ROWS } from '../components/row-layout.tsx';
import { usePagedList } from '../hooks/use-paged-list.ts';
import { useTranslation } from '../i18n/use-translation.ts';
import { useChannelTitle } from '../lib/channel-titles.ts';

// The embeds' lists (`/embed/playlist/:id`, `/embed/channel/:id[/playlists]`): the same endless,
// virtualized list as the full views, server-rendered first rows included, under a one-line
// heading instead of the view's header, and without the deep-link seek, the "Whole list" panel
// and the recent views, which belong to the explorer itself (the footer opens it).

function EmbedHeading({ title, about }: { title: ReactNode; about: ReactNode }) {
  return (
    <div className="py-2">
      <h1 className="truncate text-base font-bold text-zinc-900 dark:text-zinc-50">
        <bdi>{title}</bdi>
      </h1>
      <p className="truncate text-xs text-zinc-600 dark:text-zinc-400">{about}</p>
    </div>
  );
}

export function EmbedPlaylistRoute() {
  const { id = '' } = useParams();
  const { t } = useTranslation();
  const { list, info, listProps } = usePlaylistList(id);
  return (
    <div>
      <title>{t('title.withSite', { title: info?.title || t('title.playlist') })}</title>
      <PagedList
        list={list}
        {...listProps}
        header={
          <EmbedHeading
            title={
              info?.title ?? <Trans id="playlist.heading.byId" values={{ id: <bdi>{id}</bdi> }} />
            }
            about={
              info ? (
                <>
                  <bdi>{info.channelTitle}</bdi> ·{' '}
                  {t('list.videoCount', { count: info.totalItems })}
                </>
              ) : (
                t('title.playlist')
              )
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

/** What each channel tab lists, its words, and how a row of it looks (as the full view's tabs). */
const CHANNEL_TABS = {
  videos: {
    endpoint: 'channel-videos',
    end: 'channel.videos.end',
    loading: 'channel.videos.loading',
    empty: 'channel.videos.empty',
    about: 'embed.channel.videosAbout',
    rowSize: CHANNEL_VIDEO_ROW_SIZE,
    row: (item: ChannelVideo, eager: boolean) => <ChannelVideoRow video={item} eager={eager} />,
  },
  playlists: {
    endpoint: 'channel-playlists',
    end: 'channel.playlists.end',
    loading: 'channel.playlists.loading',
    empty: 'channel.playlists.empty',
    about: 'embed.channel.playlistsAbout',
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
  const { t } = useTranslation();
  const name = useChannelTitle(id) ?? id;
  const { endpoint, end, loading, empty, about, rowSize, row } = CHANNEL_TABS[tab];
  const list = usePagedList(endpoint, id, (count) => t(end, { count }));
  const label = t(CHANNEL_TAB_LABEL[tab]);
  return (
    <div>
      <title>{t('title.channelTab', { name, tab: label })}</title>
      <PagedList
        list={list}
        label={label}
        rowSize={rowSize}
        loadingText={t(loading)}
        emptyText={t(empty)}
        problemHeadingLevel={1}
        header={<EmbedHeading title={name} about={t(about)} />}
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
