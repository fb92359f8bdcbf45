import { useEffect, useId, useMemo, useState } from 'react';
import {
  exportPath,
  itemViews,
  type ExportFormat,
  type ListItem,
} from '../../shared/whole-list.ts';
import type { WholeListSlotProps } from '../components/whole-list-slot.tsx';
import { SORT_CHOICES, sortChoice, sortOrder } from '../lib/list-sort.ts';
import { readPanelParams, replacePanelParams, type SortKey } from '../lib/whole-list-params.ts';
import { Charts } from './charts.tsx';
import { LoadAll } from './load-all.tsx';
import { Totals } from './totals.tsx';
import { BUTTON, BUTTON_QUIET, CARD, INPUT, NOTE, QUIET, SUBHEADING } from './ui.ts';
import { useWalk, type Walk } from './use-walk.ts';
// Already loaded with the first visit's scripts, so free at run time: imported so that the
// build groups the shared modules the panel reaches (the ID patterns, through the contract)
// into the first visit's chunk as before, rather than splitting them into one more file there.
import '../hooks/use-entry-scroll.ts';

// The "Whole list" panel (its own code chunk, loaded when the panel first opens): load all,
// the exact total over the list or a range, sort, charts and export; find is the bar under it
// (find-bar.tsx), which stays at the top of the window over the list.

export { FindBar } from './find-bar.tsx';

const EXPORTS: ReadonlyArray<{ format: ExportFormat; label: string; note: string }> = [
  { format: 'csv', label: 'CSV', note: 'every field, for a spreadsheet' },
  { format: 'json', label: 'JSON', note: 'the items as the lookups give them' },
  { format: 'txt', label: 'Text', note: 'one link a line' },
];

function Export({ list, id }: Pick<WholeListSlotProps, 'list' | 'id'>) {
  return (
    <div className={CARD}>
      <h3 className={SUBHEADING}>Export</h3>
      <ul className="mt-2 flex flex-wrap gap-2">
        {EXPORTS.map(({ format, label, note }) => (
          <li key={format}>
            <a
              href={exportPath(list, id, format)}
              download
              className={BUTTON_QUIET}
              title={`Download the whole list as ${label}: ${note}`}
            >
              {`Download ${label}`}
            </a>
          </li>
        ))}
      </ul>
      <p className={`${QUIET} mt-2`}>The server reads the whole list for the file.</p>
    </div>
  );
}

function sortValue(list: WholeListSlotProps['list'], item: ListItem, key: SortKey): number | null {
  if (key === 'views') return itemViews(list, item);
  if (key === 'most' || key === 'fewest') return (item as { videoCount: number }).videoCount;
  return (item as { duration: number | null }).duration;
}

function Sort({ list, items, complete, host, walk }: WholeListSlotProps & { walk: Walk }) {
  const [key, setKey] = useState<SortKey>(() => {
    const wanted = readPanelParams(window.location.search).sort;
    return sortChoice(list, wanted) ? wanted : 'given';
  });
  const selectId = useId();
  const order = useMemo(
    () => (complete ? sortOrder(items.length, key, (p, k) => sortValue(list, items[p]!, k)) : null),
    [complete, items, key, list],
  );
  const { setOrder } = host;
  useEffect(() => {
    setOrder(order);
  }, [order, setOrder]);
  const choose = (next: SortKey) => {
    setKey(next);
    replacePanelParams({ sort: next });
  };
  const pending = !complete && key !== 'given';
  return (
    <div className={CARD}>
      <label htmlFor={selectId} className={SUBHEADING}>
        Sort
      </label>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <select
          id={selectId}
          value={key}
          onChange={(event) => choose(event.target.value as SortKey)}
          disabled={!complete && key === 'given'}
          className={INPUT}
        >
          {SORT_CHOICES[list].map((choice) => (
            <option key={choice.key} value={choice.key}>
              {choice.label}
            </option>
          ))}
        </select>
        {!complete && walk.state.phase !== 'running' && (
          <button type="button" onClick={walk.start} className={BUTTON}>
            Load all to sort
          </button>
        )}
      </div>
      {!complete && (
        <p className={`${NOTE} mt-2`}>
          {pending
            ? `Sorted ${sortChoice(list, key)?.label.toLowerCase()} once the whole list is loaded.`
            : 'Sorting needs the whole list: load it all first.'}
        </p>
      )}
    </div>
  );
}

export function WholeListPanel(props: WholeListSlotProps) {
  const walk = useWalk(props.list, props.id);
  return (
    // One column on a phone, in reading order; from md, the total beside the three others.
    <div className="grid grid-cols-1 items-start gap-3 md:grid-cols-2 md:grid-rows-[auto_auto_1fr]">
      <div className="min-w-0 md:col-start-1">
        <LoadAll {...props} walk={walk} />
      </div>
      <div className="min-w-0 md:col-start-2 md:row-span-3 md:row-start-1">
        <Totals {...props} />
      </div>
      <div className="min-w-0 md:col-start-1">
        <Sort {...props} walk={walk} />
      </div>
      <div className="min-w-0 md:col-start-1">
        <Export list={props.list} id={props.id} />
      </div>
      <div className="min-w-0 md:col-span-2">
        <Charts list={props.list} items={props.items} complete={props.complete} />
      </div>
    </div>
  );
}
