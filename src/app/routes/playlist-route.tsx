import { Trans } from '@lingui/react';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useParams } from 'react-router';
import { playlistPath } from '../../shared/app-routes.ts';
import { PagedList } from '../components/paged-list.tsx';
import { PlaylistHeader, PlaylistHeaderSkeleton } from '../components/playlist-header.tsx';
import { PlaylistRow } from '../components/playlist-row.tsx';
import { EAGER_ROWS } from '../components/row-layout.tsx';
import { SeekStatus } from '../components/seek-status.tsx';
import { useAddressFollowsTop, useDeepLinkSeek } from '../hooks/use-deep-link-seek.ts';
import { usePlaylistList } from '../hooks/use-playlist-list.ts';
import { useReplaceSearch } from '../hooks/use-replace-search.ts';
import { useTranslation } from '../i18n/use-translation.ts';
import { readSeekTarget, withTopIndex } from '../lib/deep-link.ts';
import { entryKey } from '../lib/history-entry.ts';
import { recordRecentView } from '../lib/recent-views.ts';
import type { WindowListHandle } from '../lib/window-list-handle.ts';
import { useExactTimeFrom, useWholeList, WholeListSlot } from '../whole-list/index.ts';
import { ContinueBar } from '../progress/continue-bar.tsx';
import { withoutMarked, type RowMap } from '../progress/hidden-rows.ts';
import { useListProgress } from '../progress/use-list-progress.ts';

// `/playlist/:id[?index=N | ?v=VIDEO]`: the playlist's header over its endless list, opened at
// the item the link names, with the address bar kept on the item at the top.

export function PlaylistRoute() {
  const { id = '' } = useParams();
  const location = useLocation();
  // One view per history entry: its deep-link target and restored position are its own.
  return <PlaylistView key={entryKey(location)} id={id} search={location.search} />;
}

function PlaylistView({ id, search }: { id: string; search: string }) {
  const { t } = useTranslation();
  const { list, info, listProps } = usePlaylistList(id);
  // The link's target, read once: the address bar changes as the reader scrolls.
  const [target] = useState(() => readSeekTarget(search));
  // The list's handle as the hooks that scroll it see it: positions, whatever rows are hidden.
  const rowsRef = useRef<RowMap | undefined>(undefined);
  const windowRef = useRef<WindowListHandle>(null);
  const listRef = useMemo(
    () => ({
      current: {
        scrollToIndex: (position: number) =>
          windowRef.current?.scrollToIndex(rowsRef.current?.rowOf(position) ?? position),
      },
    }),
    [],
  );
  const seek = useDeepLinkSeek(target, list, listRef);
  const replaceSearch = useReplaceSearch();
  // The "Whole list" panel: a match it jumps to is shared as ?index=N, as a deep link is.
  const wholeList = useWholeList(listRef, (position) => {
    const item = list.items[position];
    if (!item || wholeList.order !== null) return;
    replaceSearch((current) => withTopIndex(current, item.index));
  });
  const progress = useListProgress('playlist', id);
  const hideWatched = progress.entry?.hideWatched ?? false;
  const exactLeft = useExactTimeFrom('playlist', id, progress.entry?.position ?? null);
  const marked = progress.entry?.marks;
  // Not over a sorted list: its rows are the panel's order, and the whole list is in anyway.
  const rows = useMemo(
    () =>
      hideWatched && marked && marked.length > 0 && wholeList.order === null
        ? withoutMarked(list.length, marked)
        : undefined,
    [hideWatched, marked, wholeList.order, list.length],
  );
  useLayoutEffect(() => {
    rowsRef.current = rows;
  });
  const followAddress = useAddressFollowsTop(
    list.items,
    () => seek.holdsAddress() || wholeList.holdsAddress(),
  );
  const followTop = (row: number) => {
    const position = rows ? rows.positionAt(row) : row;
    followAddress(position);
    // Rows sorted by the panel are not the list's order: their top says nothing of progress.
    const item = list.items[position];
    if (item && wholeList.order === null) progress.reach(item.index);
  };

  useEffect(() => {
    if (info) recordRecentView({ kind: 'playlist', id, title: info.title, path: playlistPath(id) });
  }, [id, info]);

  const marks = new Set(progress.entry?.marks);
  // Stable, so the memoized rows are not all drawn again for it.
  const { record } = progress;
  const openItem = useCallback((position: number) => record(position, 'opened'), [record]);

  // A failed first page names the failure, as the view's heading does.
  const title = info?.title || list.problem?.title || t('title.playlist');
  return (
    <div>
      <title>{t('title.withSite', { title })}</title>
      <PagedList
        list={list}
        {...listProps}
        pendingHeader={<PlaylistHeaderSkeleton />}
        header={
          <>
            {info ? (
              <PlaylistHeader info={info} />
            ) : (
              <h1 className="py-5 text-xl font-bold">
                <Trans id="playlist.heading.byId" values={{ id: <bdi>{id}</bdi> }} />
              </h1>
            )}
            <SeekStatus
              state={seek.state}
              target={target}
              loaded={list.count}
              total={info?.totalItems}
            />
            <ContinueBar
              entry={progress.entry}
              items={list.items}
              total={info?.totalItems ?? null}
              exactSeconds={exactLeft}
              hideWatched={hideWatched}
              onHideWatched={wholeList.order === null ? progress.hideWatched : undefined}
            />
            <WholeListSlot
              list="playlist"
              id={id}
              host={wholeList}
              items={list.items}
              complete={list.loaded && !list.hasNextPage && !list.trimmed}
              totalItems={info?.totalItems ?? null}
              title={info?.title ?? null}
            />
          </>
        }
        // Until the target's page is in, only the progress shows: laying out a list that grows
        // a page at a time, none of it on screen, would cost more than the pages themselves.
        holdRows={seek.state === 'loading'}
        openAt={seek.state === 'found' ? seek.position : undefined}
        handleRef={windowRef}
        rows={rows}
        onTopIndexChange={followTop}
        renderRow={(row) => {
          // Row `row` shows item `position`: the same unless the panel sorted the list or
          // watched items are hidden.
          const position = rows ? rows.positionAt(row) : wholeList.itemAt(row);
          const marked = wholeList.marked >= 0 ? wholeList.marked : seek.position;
          return (
            <PlaylistRow
              item={list.items[position]!}
              playlistId={id}
              isTarget={position === marked}
              eager={row < EAGER_ROWS}
              watched={marks.has(list.items[position]!.index)}
              onToggleWatched={progress.toggle}
              onOpen={openItem}
            />
          );
        }}
      />
    </div>
  );
}
