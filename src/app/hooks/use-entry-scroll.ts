import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { useLayoutEffect, useState } from 'react';
import { useLocation, useNavigationType } from 'react-router';
import { readSeekTarget } from '../lib/deep-link.ts';
import { entryKey } from '../lib/history-entry.ts';
import { recalledScroll } from '../lib/scroll-memory.ts';
import { readerMovedFirst, useArrivedByHydration } from './use-hydrated.ts';

/**
 * Where the window was when this history entry was last shown, for back/forward (POP)
 * navigations and a reload of the tab; undefined for new visits, which start at the top. Read
 * once per entry: views are keyed by the entry's identity. Never on the server, which has no
 * memory of the tab.
 */
function useEntryScroll(): number | undefined {
  const location = useLocation();
  const navigationType = useNavigationType();
  const [y] = useState(() =>
    navigationType === 'POP' && typeof window !== 'undefined'
      ? recalledScroll(entryKey(location))
      : undefined,
  );
  return y;
}

/** For views without a list: back to the remembered position, or to the top. */
export function useStaticViewScroll(): void {
  const y = useEntryScroll();
  const arrivedByHydration = useArrivedByHydration();
  useLayoutEffect(() => {
    // The server's page, scrolled by the reader before the app took it over: theirs.
    if (readerMovedFirst(arrivedByHydration)) return;
    window.scrollTo(0, y ?? 0);
  }, [y, arrivedByHydration]);
}

/**
 * For a view whose list is cached under `queryKey`: back/forward (or a reload) with its pages
 * still cached returns to the remembered position, which the list itself restores (so this
 * returns it); anything else starts at the top, and a position in the URL is the way back. A
 * page the reader scrolled before the app took it over stays where they put it.
 */
export function useListEntryScroll(queryKey: QueryKey): number | undefined {
  const queryClient = useQueryClient();
  const { search } = useLocation();
  const restoreY = useEntryScroll();
  const arrivedByHydration = useArrivedByHydration();
  const [restoring] = useState(
    () =>
      restoreY !== undefined &&
      queryClient.getQueryData(queryKey) !== undefined &&
      // A reloaded link that names its item opens there, as the server rendered it (a seek),
      // and a reader who has already scrolled the server's page keeps their place.
      !(arrivedByHydration && (readSeekTarget(search) !== null || window.scrollY !== 0)),
  );
  // A layout effect, so that it runs before a deep link's jump, declared after it in the view.
  useLayoutEffect(() => {
    if (!restoring && !readerMovedFirst(arrivedByHydration)) window.scrollTo(0, 0);
  }, [restoring, arrivedByHydration]);
  return restoring ? restoreY : undefined;
}
