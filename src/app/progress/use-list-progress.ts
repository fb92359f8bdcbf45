import { useCallback, useEffect, useRef, useSyncExternalStore } from 'react';
import {
  progressKey,
  progressStore,
  recordPosition,
  setHideWatched,
  toggleMark,
  type ListKind,
  type ListProgress,
} from './progress-store.ts';

/** One list's progress and the ways to change it; null until the reader has any. */
export function useListProgress(kind: ListKind, id: string) {
  const state = useSyncExternalStore(
    progressStore.subscribe,
    progressStore.get,
    progressStore.initial,
  );
  const entry: ListProgress | null = state.lists.get(progressKey(kind, id)) ?? null;
  const record = useCallback(
    (position: number, how: 'opened' | 'reached') =>
      progressStore.set((s) => recordPosition(s, kind, id, position, how, Date.now())),
    [kind, id],
  );
  const toggle = useCallback(
    (position: number) => progressStore.set((s) => toggleMark(s, kind, id, position, Date.now())),
    [kind, id],
  );
  // The top row counts once the reader settles there, not at every frame of a scroll; the
  // list's first row is where every visit starts, not a place reached, so it is never kept.
  const settle = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(settle.current), []);
  const reach = useCallback(
    (position: number) => {
      clearTimeout(settle.current);
      if (position <= 1) return;
      settle.current = setTimeout(() => record(position, 'reached'), SETTLE_MS);
    },
    [record],
  );
  const hideWatched = useCallback(
    (hide: boolean) => progressStore.set((s) => setHideWatched(s, kind, id, hide, Date.now())),
    [kind, id],
  );
  return { entry, record, toggle, reach, hideWatched };
}

/** How long the top row must stay put to count as reached. */
const SETTLE_MS = 1_500;
