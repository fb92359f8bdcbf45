// Where this browser keeps its list of jobs, and the one question every page asks of it: is a
// job of ours still unfinished? Answered from the stored text alone, without the schemas, so
// that the frame around every view (jobs/job-watch-slot.tsx) can ask it for next to nothing and
// load the jobs' code only when the answer is yes. The list itself is job-list.ts.

export const JOB_LIST_KEY = 'catalogue-explorer.jobs';

/**
 * Fired on `window` by job-list.ts whenever the list changes in this page, with whether a job
 * is unfinished as its detail (true even when storage refused to keep the change).
 */
export const JOB_LIST_CHANGED = 'catalogue-explorer:jobs-changed';

/**
 * Whether the stored list names a job this browser has not seen end: any job, or one of the
 * list `of` (its `list` kind and ID, as a job's request names them).
 */
export function storedUnfinishedJob(of?: { list: string; id: string }): boolean {
  try {
    // Storage read directly (not through lib/local-store.ts, which the frame would then carry):
    // a browser that refuses it throws, and that is a no.
    const text = globalThis.localStorage?.getItem(JOB_LIST_KEY);
    if (!text) return false;
    const jobs = (JSON.parse(text) as { jobs?: unknown }).jobs;
    if (!Array.isArray(jobs)) return false;
    return jobs.some((job: { ended?: unknown; request?: { list?: unknown; id?: unknown } }) => {
      if (typeof job !== 'object' || job === null || job.ended !== null) return false;
      return of === undefined || (job.request?.list === of.list && job.request?.id === of.id);
    });
  } catch {
    return false;
  }
}
