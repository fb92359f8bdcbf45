import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useLocation, useParams } from 'react-router';
import { channelPath, type ChannelTab } from '../../shared/app-routes.ts';
import type { MessageId } from '../../shared/i18n/message-id.ts';
import { demoEntriesOptions } from '../api/catalogue-queries.ts';
import { CHANNEL_TAB_LABEL, ChannelHeader } from '../components/channel-header.tsx';
import {
  CHANNEL_PLAYLIST_ROW_SIZE,
  ChannelPlaylistRow,
} from '../components/channel-playlist-row.tsx';
import { CHANNEL_VIDEO_ROW_SIZE, ChannelVideoRow } from '../components/channel-video-row.tsx';
import { EAGER_ROWS } from '../components/row-layout.tsx';
import { PagedList } from '../components/paged-list.tsx';
import type { RowSize } from '../components/window-list.tsx';
import { usePagedList, type PageItem } from '../hooks/use-paged-list.ts';
import { useTranslation } from '../i18n/use-translation.ts';
import { useChannelTitle } from '../lib/channel-titles.ts';
import { entryKey } from '../lib/history-entry.ts';
import type { WindowListHandle } from '../lib/window-list-handle.ts';
import { useWholeList, WholeListSlot } from '../whole-list/index.ts';
import { recordRecentView } from '../lib/recent-views.ts';

// `/channel/:id[/videos]` and `/channel/:id/playlists`: one header with tabs over the tab's
// endless list. The tabs differ only in what the table below says about each.

/** Which lookup feeds each tab (spec §4.2, §4.3). */
interface TabEndpoint {
  videos: 'channel-videos';
  playlists: 'channel-playlists';
}

interface TabList<E extends TabEndpoint[ChannelTab]> {
  endpoint: E;
  /** The list's end line (with its count), its loading and its empty messages. */
  end: MessageId;
  loading: MessageId;
  empty: MessageId;
  rowSize: RowSize;
  /** `eager`: the row is among the first EAGER_ROWS (row-layout.tsx). */
  renderItem: (item: PageItem<E>, eager: boolean) => ReactNode;
}

const TAB_LISTS: { [T in ChannelTab]: TabList<TabEndpoint[T]> } = {
  videos: {
    endpoint: 'channel-videos',
    end: 'channel.videos.end',
    loading: 'channel.videos.loading',
    empty: 'channel.videos.empty',
    rowSize: CHANNEL_VIDEO_ROW_SIZE,
    renderItem: (video, eager) => <ChannelVideoRow video={video} eager={eager} />,
  },
  playlists: {
    endpoint: 'channel-playlists',
    end: 'channel.playlists.end',
    loading: 'channel.playlists.loading',
    empty: 'channel.playlists.empty',
    rowSize: CHANNEL_PLAYLIST_ROW_SIZE,
    renderItem: (playlist, eager) => <ChannelPlaylistRow playlist={playlist} eager={eager} />,
  },
};

export function ChannelRoute({ tab }: { tab: ChannelTab }) {
  const { id = '' } = useParams();
  const location = useLocation();
  const { t } = useTranslation();
  // The demo catalogue's entries name its channels (and are remembered as they arrive), so a
  // deep link to a demo channel shows its name even in a fresh browser.
  useQuery(demoEntriesOptions());
  const title = useChannelTitle(id);
  useEffect(() => {
    recordRecentView({ kind: 'channel', id, title: title ?? id, path: channelPath(id, tab) });
  }, [id, title, tab]);
  return (
    <div>
      <title>{t('title.channelTab', { name: title ?? id, tab: t(CHANNEL_TAB_LABEL[tab]) })}</title>
      <ChannelHeader id={id} title={title} tab={tab} />
      {/* One list per history entry: its restored position is its own. */}
      <ChannelTabList key={entryKey(location)} id={id} tab={tab} title={title ?? null} />
    </div>
  );
}

function ChannelTabList<T extends ChannelTab>({
  id,
  tab,
  title,
}: {
  id: string;
  tab: T;
  /** The channel's name, when known. */
  title: string | null;
}) {
  const { t } = useTranslation();
  const { endpoint, end, loading, empty, rowSize, renderItem } = TAB_LISTS[tab];
  const list = usePagedList(endpoint, id, (count) => t(end, { count }));
  const listRef = useRef<WindowListHandle>(null);
  const wholeList = useWholeList(listRef);
  // End on a channel: its end is not known until every page is read, which may cost more than
  // the quota holds. The Whole list panel says what loading them all costs; End is sent there.
  const [endAsked, setEndAsked] = useState(false);
  const endNote = useRef<HTMLParagraphElement>(null);
  const { open: panelOpen, toggle: togglePanel } = wholeList;
  const onEndUnknown = useCallback(() => {
    if (!panelOpen) togglePanel();
    setEndAsked(true);
  }, [panelOpen, togglePanel]);
  useEffect(() => {
    if (!endAsked) return;
    endNote.current?.scrollIntoView({ block: 'start' });
    endNote.current?.focus();
  }, [endAsked]);
  return (
    <PagedList
      list={list}
      handleRef={listRef}
      onEndUnknown={onEndUnknown}
      header={
        // In the view's own flow (no wrapper): the panel's find bar sticks over the whole list.
        <>
          <div aria-hidden="true" className="h-3" />
          {endAsked && list.hasNextPage ? (
            <p
              ref={endNote}
              tabIndex={-1}
              role="status"
              className="mb-2 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-950 outline-none dark:bg-amber-950/40 dark:text-amber-100"
            >
              {t('keys.endUnknown')}
            </p>
          ) : null}
          <WholeListSlot
            list={endpoint}
            id={id}
            host={wholeList}
            items={list.items}
            complete={list.loaded && !list.hasNextPage && !list.trimmed}
            totalItems={null}
            title={title}
          />
        </>
      }
      label={t(CHANNEL_TAB_LABEL[tab])}
      rowSize={rowSize}
      loadingText={t(loading)}
      // An empty page with no continuation is an answer, not an error (spec §4.3).
      emptyText={t(empty)}
      rowsClassName="pt-3"
      renderRow={(row) => {
        // Row `row` shows item `position`: the same unless the panel sorted the list.
        const position = wholeList.itemAt(row);
        const content = renderItem(list.items[position]!, row < EAGER_ROWS);
        return position === wholeList.marked ? <MarkedRow>{content}</MarkedRow> : content;
      }}
    />
  );
}

/** The item a find or a summary jumped to, marked as a playlist's deep-linked item is. */
function MarkedRow({ children }: { children: ReactNode }) {
  return (
    <div
      aria-current="true"
      className="h-full rounded-lg bg-amber-100 ring-2 ring-amber-500 ring-inset dark:bg-amber-950"
    >
      {children}
    </div>
  );
}
