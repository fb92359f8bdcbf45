import { readIndex } from '../../../shared/app-routes.ts';

// What the "Whole list" panel keeps in the address (so a link shares it): the find query
// (`q`), the order (`sort`) and the range its total covers (`from`, `to`). Pure, and small: the
// views read it to know whether a link opens with the panel, before the panel's code loads.

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
export function readPanelParams(search: string): PanelParams {
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

/** The query string with `patch` applied: defaults are left out; everything else is kept. */
export function withPanelParams(search: string, patch: Partial<PanelParams>): string {
  const query = new URLSearchParams(search);
  const set = (name: string, value: string | undefined) => {
    if (value === undefined || value === '') query.delete(name);
    else query.set(name, value);
  };
  if ('q' in patch) set('q', patch.q);
  if ('sort' in patch) set('sort', patch.sort === 'given' ? undefined : patch.sort);
  if ('from' in patch) set('from', patch.from?.toString());
  if ('to' in patch) set('to', patch.to?.toString());
  const text = query.toString();
  return text === '' ? '' : `?${text}`;
}
