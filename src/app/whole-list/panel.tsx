import { Charts } from './components/charts.tsx';
import { ExportLinks } from './components/export-links.tsx';
import { LoadAll } from './components/load-all.tsx';
import { SortPicker } from './components/sort-picker.tsx';
import { Totals } from './components/totals.tsx';
import { useWalk } from './hooks/use-walk.ts';
import type { WholeListProps } from './panel-props.ts';
// Already loaded with the first visit's scripts, so free at run time: imported so that the
// build groups the shared modules the panel reaches (the ID patterns, through the contract)
// into the first visit's chunk as before, rather than splitting them into one more file there.
import '../hooks/use-entry-scroll.ts';

// The "Whole list" panel, the chunk the slot downloads when the panel first opens (its file
// name names the chunk): load all, the exact total over the list or a range, sort, export and
// charts; and find, the bar under the panel that stays at the top of the window over the list.

export { FindBar } from './components/find-bar.tsx';

export function WholeListPanel(props: WholeListProps) {
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
        <SortPicker {...props} walk={walk} />
      </div>
      <div className="min-w-0 md:col-start-1">
        <ExportLinks list={props.list} id={props.id} />
      </div>
      <div className="min-w-0 md:col-span-2">
        <Charts list={props.list} items={props.items} complete={props.complete} />
      </div>
    </div>
  );
}
