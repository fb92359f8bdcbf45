import { useLayoutEffect, useState } from 'react';
import { useLocation, useNavigationType } from 'react-router';
import { recalledScroll } from '../lib/scroll-memory.ts';

/**
 * Where the window was when this history entry was last shown, for back/forward (POP)
 * navigations; undefined for new visits, which start at the top. Read once per entry: views
 * are keyed by the location key.
 */
export function useEntryScroll(): number | undefined {
  const location = useLocation();
  const navigationType = useNavigationType();
  const [y] = useState(() => (navigationType === 'POP' ? recalledScroll(location.key) : undefined));
  return y;
}

/** For views without a list: back to the remembered position, or to the top. */
export function useStaticViewScroll(): void {
  const y = useEntryScroll();
  useLayoutEffect(() => {
    window.scrollTo(0, y ?? 0);
  }, [y]);
}
