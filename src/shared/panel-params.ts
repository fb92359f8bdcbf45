import { readIndex } from './app-routes.ts';

// What the "Whole list" panel keeps in the address (so a link shares it): the find query
// (`q`), the order (`sort`) and the range its total covers (`from`, `to`). Shared because two
// readers must agree on it: the app, which opens the panel when a link names any of them, and
// the server, whose render cache keys a view on whether the panel opens
// (server/rendering/render-key.ts).

export type SortKey = 'given' | 'oldest' | 'views' | 'longest' | 'shortest' | 'most' | 'fewest';
const SORT_KEYS: readonly SortKey[] = [
  'given',
  'oldest',
  'views',
  'longest',
  'shortest',
  'most',
  'fewest',
];

export interface PanelParams {
  q: string;
  sort: SortKey;
  from: number | undefined;
  to: number | undefined;
}

export const NO_PANEL_PARAMS: PanelParams = {
  q: '',
  sort: 'given',
  from: undefined,
  to: undefined,
};

/** The panel's parameters in a query string; anything unreadable is left out. */
export function readPanelParams(search: string | URLSearchParams): PanelParams {
  const query = new URLSearchParams(search);
  const sort = query.get('sort') as SortKey | null;
  let from = readIndex(query.get('from'));
  let to = readIndex(query.get('to'));
  if (from !== undefined && to !== undefined && from > to) [from, to] = [to, from];
  return {
    q: (query.get('q') ?? '').slice(0, 200),
    sort: sort !== null && SORT_KEYS.includes(sort) ? sort : 'given',
    from,
    to,
  };
}

/** A link opens with the panel when it names any of its choices. */
export function hasPanelParams(params: PanelParams): boolean {
  return (
    params.q !== '' ||
    params.sort !== 'given' ||
    params.from !== undefined ||
    params.to !== undefined
  );
}
