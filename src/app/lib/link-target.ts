import { createContext, useContext } from 'react';

// Where the explorer's own links open. In the app, in place; in an embed (a list framed on
// someone else's page), in a new tab: the reader goes to the explorer, the host page stays.

export const OpensOutside = createContext(false);

/** Props for a router <Link> (which leaves a link with a target to the browser). */
export function useOwnLinkTarget(): { target?: '_blank'; rel?: string } {
  return useContext(OpensOutside) ? { target: '_blank', rel: 'noopener' } : {};
}
