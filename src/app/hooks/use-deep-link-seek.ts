import { useEffect, useLayoutEffect, useMemo, useRef, type RefObject } from 'react';
import {
  findTarget,
  seekState,
  withTopIndex,
  type SeekState,
  type SeekTarget,
} from '../lib/deep-link.ts';
import type { WindowListHandle } from '../lib/window-list-handle.ts';
import { readerMovedFirst, useArrivedByHydration, useHydrated } from './use-hydrated.ts';
import type { PagedList } from './use-paged-list.ts';
import { useReplaceSearch } from './use-replace-search.ts';

export interface DeepLinkSeek {
  state: SeekState;
  /** The target's position in the list, or -1. */
  position: number;
  /**
   * Whether the address bar still belongs to the deep link: while its pages load, and until
   * the window moves away from where the jump put it (the link's own URL stays shareable).
   */
  holdsAddress: () => boolean;
}

/**
 * Opens a playlist at the item a link names. Pages are chained (spec §2.6), so every page up
 * to the target is loaded first, each asked for as soon as the previous one arrives, without
 * waiting for a render in between (page-chain.ts). Once the item is in, the window jumps to it
 * (through `listRef`). No seek when `target` is null or the view returns to a remembered
 * position instead.
 */
export function useDeepLinkSeek(
  target: SeekTarget | null,
  list: PagedList<'playlist'>,
  listRef: RefObject<WindowListHandle | null>,
): DeepLinkSeek {
  const seeking = target !== null && list.restoreY === undefined;
  const { items, loaded, hasNextPage, isError, requestUntil } = list;
  const position = useMemo(
    () => (seeking ? findTarget(items, target) : -1),
    [seeking, target, items],
  );
  const state = seekState({ seeking, position, loaded, hasNextPage, isError });

  const startSeek = state === 'loading' && loaded;
  useEffect(() => {
    if (startSeek && target !== null) requestUntil((page) => findTarget(page.items, target) >= 0);
  }, [startSeek, target, requestUntil]);

  // The jump needs the list as the browser lays it out: not before hydration, when the rows are
  // still the server's and their height not yet the screen's. A reader who scrolled the
  // server's rows, the item among them, before then has chosen where to read: no jump over them.
  const hydrated = useHydrated();
  const arrivedByHydration = useArrivedByHydration();
  const jumpedY = useRef<number | null>(null);
  const firstLook = useRef(true);
  const skipped = useRef(false);
  useLayoutEffect(() => {
    if (!hydrated) return;
    const first = firstLook.current;
    firstLook.current = false;
    if (state !== 'found' || jumpedY.current !== null || skipped.current) return;
    if (first && readerMovedFirst(arrivedByHydration)) {
      skipped.current = true;
      return;
    }
    listRef.current?.scrollToIndex(position);
    jumpedY.current = window.scrollY;
  }, [state, hydrated, position, listRef, arrivedByHydration]);

  return {
    state,
    position,
    holdsAddress: () => {
      if (state === 'loading') return true;
      if (jumpedY.current !== null && Math.abs(window.scrollY - jumpedY.current) < 2) return true;
      jumpedY.current = null;
      return false;
    },
  };
}

/**
 * The address bar follows the item at the top of the window once scrolling settles, rewriting
 * the history entry rather than adding one, so the URL always shares the current position.
 * Returns the list's `onTopIndexChange`.
 */
export function useAddressFollowsTop(
  items: ReadonlyArray<{ index: number } | undefined>,
  held: () => boolean,
): (position: number) => void {
  const replaceSearch = useReplaceSearch();
  return (position) => {
    if (held()) return;
    const item = items[position];
    if (item) replaceSearch((search) => withTopIndex(search, item.index));
  };
}
