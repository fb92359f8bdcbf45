import { useCallback, useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { entryKey, type EntryState } from '../lib/history-entry.ts';

/**
 * Rewrites the current history entry's query string in place, through the router: `edit` is
 * given the query string as it is ("?a=1", or "") and returns the new one. No entry is added,
 * and the entry keeps its identity (lib/history-entry.ts), so the view stays the same one.
 * Nothing is written when the query string would not change: each write costs the browser a
 * few milliseconds and the view a render.
 */
export function useReplaceSearch(): (edit: (search: string) => string) => void {
  const location = useLocation();
  const navigate = useNavigate();
  // Called from timers and scroll handlers: the location as last rendered, not as captured.
  const latest = useRef(location);
  useLayoutEffect(() => {
    latest.current = location;
  });
  return useCallback(
    (edit) => {
      const current = latest.current;
      const search = edit(current.search);
      if (search.replace(/^\?$/, '') === current.search.replace(/^\?$/, '')) return;
      const state: EntryState = { entry: entryKey(current) };
      void navigate({ search, hash: current.hash }, { replace: true, state });
    },
    [navigate],
  );
}
