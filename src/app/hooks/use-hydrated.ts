import { createContext, useContext, useState } from 'react';

/** useHydrated's answer, provided and flipped by components/hydration-state.tsx. */
export const HydratedContext = createContext(false);

/**
 * False on the server and while the client hydrates the server's markup, true from then on (and
 * at once for views the client draws itself). What differs between the two, such as the window's
 * size or scroll position, waits for true, so hydration meets exactly the server's markup.
 */
export function useHydrated(): boolean {
  return useContext(HydratedContext);
}

/**
 * True for a component that first rendered while the app took over the server's page (and on
 * the server), false for one the app drew itself later. A view that arrives by hydration is one
 * the reader may already be reading, scrolled or with text selected: it must not move them.
 */
export function useArrivedByHydration(): boolean {
  const hydrated = useHydrated();
  const [hydrating] = useState(!hydrated);
  return hydrating;
}

/**
 * Whether the reader has moved the server's page before the app took it over (read at the
 * moment of the call, in an effect: hydration is done in slices, and they may still be
 * scrolling while it runs). Their place then stands: no jump to the top, to a remembered
 * position or to a deep link's item.
 */
export function readerMovedFirst(arrivedByHydration: boolean): boolean {
  return arrivedByHydration && window.scrollY !== 0;
}
