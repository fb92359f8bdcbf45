import type { ReactNode, Ref } from 'react';
import type { PagedListState } from '../hooks/use-paged-list.ts';
import {
  EmptyState,
  ListFooter,
  LoadProgress,
  PlaceholderRow,
  ProblemView,
  SkeletonRows,
} from './list-states.tsx';
import type { WindowListHandle } from '../lib/window-list-handle.ts';
import type { RowMap } from '../progress/hidden-rows.ts';
import { WindowList, type RowSize } from './window-list.tsx';

interface PagedListProps {
  list: PagedListState;
  /** The list's accessible name. */
  label: string;
  rowSize: RowSize;
  renderRow: (position: number) => ReactNode;
  /** Announced while the first page loads. */
  loadingText: string;
  /** Shown when the list has no items at all; an answer, not an error. */
  emptyText: string;
  /** Above the rows once the first page is in, and above the skeleton rows before. */
  header?: ReactNode;
  pendingHeader?: ReactNode;
  /** h1 when the list is the whole view, so a failed first page heads it. */
  problemHeadingLevel?: 1 | 2;
  /** Keeps the rows and the footer back (a deep link still loading the pages up to its item). */
  holdRows?: boolean;
  /** The row a deep link jumps to once its rows show (WindowList's `openAt`). */
  openAt?: number;
  rowsClassName?: string;
  setSize?: number;
  handleRef?: Ref<WindowListHandle>;
  onTopIndexChange?: (position: number) => void;
  /** Rows that are not the list's positions one for one (watched items hidden). */
  rows?: RowMap;
  /** WindowList's `onEndUnknown`, while the list has pages left. */
  onEndUnknown?: () => void;
}

/**
 * An endless list in each of its states: the first page failed (a full message), loading
 * (skeleton rows), empty, or the rows with their footer (more, failed, stopped, the end).
 */
export function PagedList({
  list,
  label,
  rowSize,
  renderRow,
  loadingText,
  emptyText,
  header,
  pendingHeader,
  problemHeadingLevel,
  holdRows = false,
  openAt,
  rowsClassName,
  setSize,
  handleRef,
  onTopIndexChange,
  rows,
  onEndUnknown,
}: PagedListProps) {
  if (list.problem) {
    return (
      <ProblemView
        problem={list.problem}
        since={list.problemSince}
        onRetry={list.retry}
        onReload={list.reload}
        headingLevel={problemHeadingLevel}
      />
    );
  }
  if (!list.loaded) {
    return (
      <>
        {pendingHeader}
        <SkeletonRows rowClassName={rowSize.className} label={loadingText} />
      </>
    );
  }
  return (
    <>
      {header}
      {holdRows ? null : list.count === 0 && !list.hasNextPage ? (
        <EmptyState>{emptyText}</EmptyState>
      ) : (
        <div className={rowsClassName}>
          <WindowList
            handleRef={handleRef}
            label={label}
            count={rows ? rows.count : list.length}
            loadedCount={rows ? rows.rowOf(list.count) : list.count}
            setSize={rows ? rows.count : setSize}
            rowSize={rowSize}
            restoreY={list.restoreY}
            openAt={openAt}
            onNeedRows={list.requestRows}
            onTopIndexChange={onTopIndexChange}
            busy={list.footer?.kind === 'loading'}
            onEndUnknown={list.hasNextPage ? onEndUnknown : undefined}
            renderRow={(position) =>
              list.holds(rows ? rows.positionAt(position) : position) ? (
                renderRow(position)
              ) : (
                <PlaceholderRow />
              )
            }
          />
          {list.footer && <ListFooter state={list.footer} />}
          {list.waiting && (
            <LoadProgress
              waiting={list.waiting}
              loaded={list.count}
              onRetry={list.footer?.kind === 'error' ? list.footer.onRetry : undefined}
            />
          )}
        </div>
      )}
    </>
  );
}
