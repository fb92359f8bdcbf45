import { useEffect } from 'react';
import { useHydrated } from './use-hydrated.ts';

/**
 * Marks the moment the app has taken over the server's markup (`html[data-hydrated]` and a
 * `hydrated` performance mark): from here on, links navigate in the app and lists scroll
 * virtually. Tests and benchmarks wait for it. (After the transition that follows hydration, in
 * which lists switch to the window's own layout: a key pressed before it meets the server's
 * page, as it would before hydration.)
 */
export function useHydrationMark(): void {
  const hydrated = useHydrated();
  useEffect(() => {
    if (!hydrated || document.documentElement.dataset.hydrated) return;
    document.documentElement.dataset.hydrated = 'true';
    performance.mark('hydrated');
  }, [hydrated]);
}
