// React Router gives a location a new key on every navigation, a replace included. The app
// rewrites the current entry's address in place (it follows the item at the top of a list, and
// holds the Whole list panel's choices), and that must neither make a new view of the entry nor
// lose the scroll position remembered for it. So an entry is known by the key it was first given,
// which every in-place rewrite carries in its router state.

/** The router state of an in-place rewrite: the identity of the entry it rewrites. */
export interface EntryState {
  entry: string;
}

function carriedEntry(state: unknown): string | undefined {
  if (state && typeof state === 'object' && 'entry' in state && typeof state.entry === 'string')
    return state.entry;
  return undefined;
}

/** The identity of the history entry a router location shows. */
export function entryKey(location: { key: string; state: unknown }): string {
  return carriedEntry(location.state) ?? location.key;
}

/**
 * The same, read from `history.state` as React Router stores it (`usr` is the location's state);
 * "default", as the router says, for an entry it never wrote.
 */
export function entryKeyOfHistoryState(state: unknown): string {
  if (!state || typeof state !== 'object') return 'default';
  const { usr, key } = state as { usr?: unknown; key?: unknown };
  return carriedEntry(usr) ?? (typeof key === 'string' ? key : 'default');
}
