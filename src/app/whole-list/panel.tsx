import { Charts } from './components/charts.tsx';
import { ExportLinks } from './components/export-links.tsx';
import { ListJobs } from './components/list-jobs.tsx';
import { LoadAll } from './components/load-all.tsx';
import { SortPicker } from './components/sort-picker.tsx';
import { Totals } from './components/totals.tsx';
import { useJobOffer } from './hooks/use-job-offer.ts';
import { useWalk } from './hooks/use-walk.ts';
import type { WholeListProps } from './panel-props.ts';
import { useListJobs } from '../jobs/job-list.ts';
import { useStartJob } from '../jobs/use-start-job.ts';
// Already loaded with the first visit's scripts, so free at run time: imported so that the
// build groups the shared modules the panel reaches (the ID patterns, through the contract)
// into the first visit's chunk as before, rather than splitting them into one more file there.
import '../hooks/use-entry-scroll.ts';

// The "Whole list" panel, the chunk the slot downloads when the panel first opens (its file
// name names the chunk): load all, the exact total over the list or a range, sort, export and
// charts; and find, the bar under the panel that stays at the top of the window over the list.
// A list too long for an answer now is offered as a job (docs/jobs.md), and the jobs this
// browser started on it come first, with their progress.

export { FindBar } from './components/find-bar.tsx';

export function WholeListPanel(props: WholeListProps) {
  const walk = useWalk(props.list, props.id);
  const offer = useJobOffer(props.list, props.id, props.complete);
  const jobs = useStartJob(props.list, props.id, props.title);
  const listJobs = useListJobs(props.list, props.id);
  const showJobs = listJobs.length > 0 || jobs.error !== null || jobs.notKept !== null;
  return (
    // One column on a phone, in reading order; from md, the total beside the three others, under
    // the list's jobs when there are any.
    <div
      className={`grid grid-cols-1 items-start gap-3 md:grid-cols-2 ${showJobs ? 'md:grid-rows-[auto_auto_auto_1fr]' : 'md:grid-rows-[auto_auto_1fr]'}`}
    >
      {showJobs && (
        <div className="min-w-0 md:col-span-2">
          <ListJobs jobs={jobs} listJobs={listJobs} props={props} />
        </div>
      )}
      <div className="min-w-0 md:col-start-1">
        <LoadAll {...props} walk={walk} />
      </div>
      <div
        className={`min-w-0 md:col-start-2 md:row-span-3 ${showJobs ? 'md:row-start-2' : 'md:row-start-1'}`}
      >
        <Totals {...props} offer={offer} jobs={jobs} />
      </div>
      <div className="min-w-0 md:col-start-1">
        <SortPicker {...props} walk={walk} />
      </div>
      <div className="min-w-0 md:col-start-1">
        <ExportLinks list={props.list} id={props.id} offer={offer} jobs={jobs} />
      </div>
      <div className="min-w-0 md:col-span-2">
        <Charts list={props.list} items={props.items} complete={props.complete} />
      </div>
    </div>
  );
}
