import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useLayoutEffect, useState } from 'react';
import { useLocation, useNavigationType } from 'react-router';
import { entryKey } from '../lib/history-entry.ts';
import { recalledScroll } from '../lib/scroll-memory.ts';

/**
 * Where the window was when this history entry was last shown, for back/forward (POP)
 * navigations; undefined for new visits, which start at the top. Read once per entry: views
 * are keyed by the entry's identity.
 */
function useEntryScroll(): number | undefined {
  const location = useLocation();
  const navigationType = useNavigationType();
  const [y] = useState(() =>
    navigationType === 'POP' ? recalledScroll(entryKey(location)) : undefined,
  );
  return y;
}

/** For views without a list: back to the remembered position, or to the top. */
export function useStaticViewScroll(): void {
  const y = useEntryScroll();
  useLayoutEffect(() => {
    window.scrollTo(0, y ?? 0);
  }, [y]);
}

/**
 * For a view whose list is cached under `queryKey`: back/forward with its pages still cached
 * returns to the remembered position, which the list itself restores (so this returns it);
 * anything else starts at the top, and a position in the URL is the way back.
 */
export function useListEntryScroll(queryKey: QueryKey): number | undefined {
  const queryClient = useQueryClient();
  const restoreY = useEntryScroll();
  const [restoring] = useState(
    () => restoreY !== undefined && queryClient.getQueryData(queryKey) !== undefined,
  );
  // A layout effect, so that it runs before a deep link's jump, declared after it in the view.
  useLayoutEffect(() => {
    if (!restoring) window.scrollTo(0, 0);
  }, [restoring]);
  return restoring ? restoreY : undefined;
}
