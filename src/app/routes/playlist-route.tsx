import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useParams } from 'react-router';
import type { PlaylistItem } from '../../shared/catalogue-schema.ts';
import { VIDEO_ID_PATTERN } from '../../shared/ids.ts';
import { playlistPagesOptions } from '../api/catalogue-queries.ts';
import { EmptyState, ListFooter, ProblemView, SkeletonRows } from '../components/list-states.tsx';
import { PlaylistHeader } from '../components/playlist-header.tsx';
import { PLAYLIST_ROW_HEIGHT, PlaylistRow } from '../components/playlist-row.tsx';
import { WindowList, type WindowListHandle } from '../components/window-list.tsx';
import { useEntryScroll } from '../hooks/use-entry-scroll.ts';
import { useIsWide } from '../hooks/use-media-query.ts';
import { usePagedList } from '../hooks/use-paged-list.ts';
import { formatCount, plural } from '../lib/format.ts';
import { describeProblem } from '../lib/problem-text.ts';
import { recordRecentView } from '../lib/recent-views.ts';
import { readIndex } from '../lib/view-target.ts';

// `/playlist/:id[?index=N | ?v=VIDEO]` (issue #4). The route reads the URL, composes the
// header and the endless list, and keeps the address bar on the item at the top.

/** Where a deep link opens the playlist: at a position, or at a video. */
type SeekTarget = { index: number } | { videoId: string };

function findTarget(items: readonly PlaylistItem[], target: SeekTarget): number {
  if ('index' in target) {
    // `index` is the position (1-based) unless the catalogue says otherwise.
    if (items[target.index - 1]?.index === target.index) return target.index - 1;
    return items.findIndex((item) => item.index === target.index);
  }
  return items.findIndex((item) => item.id === target.videoId);
}

export function PlaylistRoute() {
  const { id = '' } = useParams();
  const location = useLocation();
  // One view per history entry: its deep-link target and restored position are its own.
  return <PlaylistView key={location.key} id={id} search={location.search} />;
}

function PlaylistView({ id, search }: { id: string; search: string }) {
  const options = playlistPagesOptions(id);
  const queryClient = useQueryClient();
  const restoreY = useEntryScroll();
  // Back/forward with the pages still cached: return to the remembered position. Otherwise a
  // position in the URL (`index`, kept up to date while scrolling) is the way back.
  const [restoring] = useState(
    () => restoreY !== undefined && queryClient.getQueryData(options.queryKey) !== undefined,
  );
  const [target] = useState((): SeekTarget | null => {
    const query = new URLSearchParams(search);
    const index = readIndex(query.get('index'));
    const video = query.get('v');
    if (index !== undefined) return { index };
    if (video !== null && VIDEO_ID_PATTERN.test(video)) return { videoId: video };
    return null;
  });

  const query = useInfiniteQuery(options);
  const { data, hasNextPage, isError, fetchNextPage, refetch } = query;
  const info = data?.pages[0]?.info;
  const { items, loadMore, reload, footer } = usePagedList(
    query,
    options.queryKey,
    'playlist',
    id,
    (count) => `End of playlist · ${plural(count, 'video', 'videos')}`,
  );
  const wide = useIsWide();
  const rowHeight = PLAYLIST_ROW_HEIGHT[wide ? 'wide' : 'narrow'];
  const listRef = useRef<WindowListHandle>(null);

  // Deep link: the position of the item the URL names, once its page has loaded.
  const seeking = target !== null && !restoring;
  const targetPosition = useMemo(
    () => (seeking ? findTarget(items, target) : -1),
    [seeking, target, items],
  );
  const seekState = !seeking
    ? 'none'
    : targetPosition >= 0
      ? 'found'
      : data && !hasNextPage
        ? 'missing'
        : isError
          ? 'failed'
          : 'loading';

  // Pages are chained (upstream-notes.md), so reaching item N means loading every page up to
  // it. Meanwhile only the progress shows: laying out and rendering a list that grows by a
  // page at a time, none of it on screen, would cost more than the pages themselves (bench 7). Each page is asked for as soon as the previous one arrives, without waiting for a
  // render in between, so a deep link is as fast as a plain loop over the continuations; the
  // list and the progress bar render along the way.
  const startSeek = seekState === 'loading' && data !== undefined;
  useEffect(() => {
    if (!startSeek || target === null) return;
    let stopped = false;
    void (async () => {
      for (;;) {
        const result = await fetchNextPage({ cancelRefetch: false });
        if (stopped || result.isError || !result.hasNextPage) return;
        if (findTarget(result.data?.pages.flatMap((page) => page.items) ?? [], target) >= 0) return;
      }
    })();
    return () => {
      stopped = true;
    };
  }, [startSeek, target, fetchNextPage]);

  // New visits start at the top; restored ones are placed by the list itself. (Before
  // the deep-link jump below: layout effects run in order.)
  useLayoutEffect(() => {
    if (!restoring) window.scrollTo(0, 0);
  }, [restoring]);

  const jumpedY = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (seekState === 'found' && jumpedY.current === null) {
      listRef.current?.scrollToIndex(targetPosition);
      jumpedY.current = window.scrollY;
    }
  }, [seekState, targetPosition]);

  useEffect(() => {
    if (info)
      recordRecentView({
        kind: 'playlist',
        id,
        title: info.title,
        path: `/playlist/${encodeURIComponent(id)}`,
      });
  }, [id, info]);

  // The address bar follows the item at the top, replacing the entry rather than adding one,
  // so the URL always shares the current position. The router's state (its entry key) is kept.
  const followTop = (position: number) => {
    if (seekState === 'loading') return;
    if (jumpedY.current !== null && Math.abs(window.scrollY - jumpedY.current) < 2) return;
    jumpedY.current = null;
    const item = items[position];
    if (!item) return;
    const url = new URL(window.location.href);
    url.searchParams.delete('v');
    if (item.index > 1) url.searchParams.set('index', String(item.index));
    else url.searchParams.delete('index');
    if (url.href !== window.location.href)
      window.history.replaceState(window.history.state, '', url);
  };

  const problem = isError && !data ? describeProblem(query.error, 'playlist', id) : null;
  const title = info?.title ?? (problem ? problem.title : 'Playlist');

  return (
    <div>
      <title>{`${title} · Catalogue Explorer`}</title>
      {problem ? (
        <ProblemView
          problem={problem}
          since={query.errorUpdatedAt}
          onRetry={() => void refetch()}
          onReload={reload}
          headingLevel={1}
        />
      ) : !data ? (
        <>
          <h1 className="sr-only">Loading playlist</h1>
          <div className="h-44 py-5 sm:h-52" aria-hidden="true">
            <div className="h-full w-72 max-w-full animate-pulse rounded-lg bg-zinc-200 dark:bg-zinc-800" />
          </div>
          <SkeletonRows rowHeight={rowHeight} label="Loading the playlist…" />
        </>
      ) : (
        <>
          {info ? (
            <PlaylistHeader info={info} />
          ) : (
            <h1 className="py-5 text-xl font-bold">Playlist {id}</h1>
          )}
          <SeekStatus
            state={seekState}
            target={target}
            loaded={items.length}
            total={info?.totalItems}
          />
          {seekState === 'loading' ? null : items.length === 0 && !hasNextPage ? (
            <EmptyState>This playlist has no videos.</EmptyState>
          ) : (
            <WindowList
              handleRef={listRef}
              label={info ? `Videos in ${info.title}` : 'Videos'}
              count={items.length}
              setSize={info?.totalItems}
              rowHeight={rowHeight}
              restoreY={restoring ? restoreY : undefined}
              onNearEnd={loadMore}
              onTopIndexChange={followTop}
              renderRow={(position) => (
                <PlaylistRow
                  item={items[position]!}
                  playlistId={id}
                  wide={wide}
                  isTarget={position === targetPosition}
                />
              )}
            />
          )}
          {seekState !== 'loading' && footer && <ListFooter state={footer} />}
        </>
      )}
    </div>
  );
}

function SeekStatus({
  state,
  target,
  loaded,
  total,
}: {
  state: 'none' | 'found' | 'missing' | 'failed' | 'loading';
  target: SeekTarget | null;
  loaded: number;
  total: number | undefined;
}) {
  if (!target || state === 'none' || state === 'found' || state === 'failed') return null;
  const wanted = 'index' in target ? target.index : null;
  if (state === 'missing') {
    return (
      <p
        role="status"
        className="mb-3 rounded-lg border border-amber-400 p-3 text-sm text-zinc-800 dark:border-amber-700 dark:text-zinc-200"
      >
        {wanted !== null
          ? `This playlist has ${plural(loaded, 'video', 'videos')}, so there is no item ${formatCount(wanted)}.`
          : 'The video from the link is not in this playlist.'}
      </p>
    );
  }
  const max = wanted ?? total ?? loaded;
  return (
    <div className="mb-3 rounded-lg border border-zinc-300 p-3 dark:border-zinc-700">
      <label className="flex flex-col gap-2 text-sm text-zinc-800 dark:text-zinc-200">
        <span role="status">
          {wanted !== null
            ? `Loading up to item ${formatCount(wanted)}: ${formatCount(Math.min(loaded, wanted))} of ${formatCount(wanted)} loaded…`
            : `Looking for the video: ${formatCount(loaded)}${total ? ` of ${formatCount(total)}` : ''} videos checked…`}
        </span>
        <progress
          className="h-2 w-full accent-blue-700"
          value={Math.min(loaded, max)}
          max={Math.max(max, 1)}
        />
      </label>
    </div>
  );
}
