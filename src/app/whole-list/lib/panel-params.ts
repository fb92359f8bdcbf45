// What the "Whole list" panel keeps in the address (so a link shares it): the find query
// (`q`), the order (`sort`) and the range its total covers (`from`, `to`). Reading them is
// shared with the server (shared/panel-params.ts); writing them back is the app's alone. Pure,
// and small: the views read it to know whether a link opens with the panel, before the panel's
// code loads.

export {
  hasPanelParams,
  NO_PANEL_PARAMS,
  readPanelParams,
  type PanelParams,
  type SortKey,
} from '../../../shared/panel-params.ts';
import type { PanelParams } from '../../../shared/panel-params.ts';

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
