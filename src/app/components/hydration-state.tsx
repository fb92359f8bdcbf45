import { startTransition, useEffect, useState, type ReactNode } from 'react';
import { HydratedContext } from '../hooks/use-hydrated.ts';

/**
 * Tells the app (useHydrated) when it has taken over the server's markup. The switch is a
 * transition: what changes with it (lists handing their rows to the virtualizer, the layout
 * reading the window) is a redraw that React then does in slices, yielding to the reader, where
 * a store read with useSyncExternalStore would force one synchronous re-render of everything
 * that asked (on a phone, a long task right after hydration).
 */
export function HydrationState({
  hydrating,
  children,
}: {
  /** The page came from the server and is being hydrated, not drawn by the client. */
  hydrating: boolean;
  children: ReactNode;
}) {
  const [hydrated, setHydrated] = useState(!hydrating);
  useEffect(() => {
    if (!hydrated) startTransition(() => setHydrated(true));
  }, [hydrated]);
  return <HydratedContext value={hydrated}>{children}</HydratedContext>;
}
