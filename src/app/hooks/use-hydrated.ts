import { useSyncExternalStore } from 'react';

const never = () => () => {};

/**
 * False on the server and while the client hydrates the server's markup, true from then on (and
 * at once for views the client draws itself). What differs between the two, such as the window's
 * size or scroll position, waits for true, so hydration meets exactly the server's markup.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    never,
    () => true,
    () => false,
  );
}
