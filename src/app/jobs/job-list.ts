import { useSyncExternalStore } from 'react';
import { z } from 'zod';
import { JOB_ID_PATTERN, jobRequestSchema, type JobRequest } from '../../shared/jobs.ts';
import type { ListKind } from '../../shared/whole-list.ts';
import { browserStorage, writeText, type WriteOutcome } from '../lib/local-store.ts';
import { JOB_LIST_CHANGED, JOB_LIST_KEY } from './job-list-key.ts';

// The jobs this browser started. The server keeps no list of jobs: a job's ID is its only
// address, unguessable, and whoever holds it may read it (docs/jobs.md, "IDs"). So the browser
// keeps its own, in localStorage, as the follow list is kept (following/follow-store.ts):
// a write storage refuses still changes the list for this page and says why (`WriteOutcome`);
// entries this version cannot read, and fields a newer one added, are written back as they were;
// another tab's changes are read again. An entry notes once a job has ended (`ended`), so pages
// poll only the unfinished ones, and whether the reader asked to be notified (`notify`).

export const JOB_LIST_VERSION = 1;
/** Entries past this many, the oldest that have ended are dropped. */
const MAX_JOBS = 200;

export const endedSchema = z.enum(['done', 'failed', 'cancelled', 'gone']);
export type JobEnd = z.infer<typeof endedSchema>;

const storedJobSchema = z.looseObject({
  id: z.string().regex(JOB_ID_PATTERN),
  request: jobRequestSchema,
  /** The list's title when the page that started the job knew it. */
  title: z.string().nullable(),
  /** Milliseconds since the epoch. */
  createdAt: z.number(),
  /** How the job ended, once seen; null while it runs. */
  ended: endedSchema.nullable(),
  notify: z.boolean(),
});
export type StoredJob = z.infer<typeof storedJobSchema>;

export interface JobListState {
  /** Newest first. */
  jobs: StoredJob[];
  /** Stored entries this version cannot read, kept as they were. */
  damaged: unknown[];
}

const EMPTY: JobListState = { jobs: [], damaged: [] };

/** The stored text read into today's shape, whatever damage it holds. */
export function readJobList(text: string | null): JobListState {
  if (text === null) return EMPTY;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return EMPTY;
  }
  const entries = (raw as { jobs?: unknown } | null)?.jobs;
  if (!Array.isArray(entries)) return EMPTY;
  const jobs: StoredJob[] = [];
  const damaged: unknown[] = [];
  const seen = new Set<string>();
  for (const entry of entries as unknown[]) {
    const parsed = storedJobSchema.safeParse(entry);
    if (!parsed.success || seen.has(parsed.data.id)) damaged.push(entry);
    else {
      seen.add(parsed.data.id);
      jobs.push(parsed.data);
    }
  }
  jobs.sort((a, b) => b.createdAt - a.createdAt);
  return { jobs, damaged };
}

export const jobListText = (state: JobListState) =>
  JSON.stringify({ version: JOB_LIST_VERSION, jobs: [...state.jobs, ...state.damaged] });

/** `jobs` with `job` first, and no more than MAX_JOBS: the oldest ended ones go first. */
export function withJob(jobs: readonly StoredJob[], job: StoredJob): StoredJob[] {
  const next = [job, ...jobs.filter((each) => each.id !== job.id)];
  for (let i = next.length - 1; next.length > MAX_JOBS && i >= 0; i--)
    if (next[i]!.ended !== null) next.splice(i, 1);
  return next;
}

let state: JobListState | undefined;
const listeners = new Set<() => void>();

function current(): JobListState {
  if (state === undefined) {
    let text: string | null = null;
    try {
      text = browserStorage()?.getItem(JOB_LIST_KEY) ?? null;
    } catch {
      // No storage to read: an empty list; a job started will say it was not kept.
    }
    state = readJobList(text);
  }
  return state;
}

const unfinished = (jobs: readonly StoredJob[]) => jobs.some((job) => job.ended === null);

function changed(): void {
  listeners.forEach((listener) => listener());
  if (typeof window === 'undefined') return;
  window.dispatchEvent(new CustomEvent(JOB_LIST_CHANGED, { detail: unfinished(current().jobs) }));
}

if (typeof window !== 'undefined') {
  // Another tab started, ended or removed a job: this one reads the list again.
  window.addEventListener('storage', (event) => {
    if (event.key !== JOB_LIST_KEY && event.key !== null) return;
    state = undefined;
    changed();
  });
}

/** Keeps `jobs`; the page has them either way, and the outcome says whether storage does. */
function commit(jobs: StoredJob[]): WriteOutcome {
  state = { ...current(), jobs };
  const outcome = writeText(JOB_LIST_KEY, jobListText(state));
  changed();
  return outcome;
}

function update(id: string, change: (job: StoredJob) => StoredJob): WriteOutcome {
  const { jobs } = current();
  if (!jobs.some((job) => job.id === id)) return { ok: true };
  return commit(jobs.map((job) => (job.id === id ? change(job) : job)));
}

export const jobList = {
  get: () => current().jobs,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  /** A job just started (or found again: the server gives the same job for the same request). */
  add(job: { id: string; request: JobRequest; title: string | null }): WriteOutcome {
    const known = current().jobs.find((each) => each.id === job.id);
    const entry: StoredJob = known
      ? { ...known, title: job.title ?? known.title }
      : { ...job, createdAt: Date.now(), ended: null, notify: false };
    return commit(withJob(current().jobs, entry));
  },
  remove(id: string): WriteOutcome {
    return commit(current().jobs.filter((job) => job.id !== id));
  },
  /** Notes how a job ended, once: its page stops asking about it. */
  markEnded(id: string, ended: JobEnd): WriteOutcome {
    const job = current().jobs.find((each) => each.id === id);
    if (job === undefined || job.ended === ended) return { ok: true };
    return update(id, (each) => ({ ...each, ended }));
  },
  setNotify(id: string, notify: boolean): WriteOutcome {
    return update(id, (job) => ({ ...job, notify }));
  },
};

const serverSnapshot = () => EMPTY.jobs;

/** This browser's jobs, newest first; none on the server and while hydrating. */
export function useJobList(): StoredJob[] {
  return useSyncExternalStore(jobList.subscribe, jobList.get, serverSnapshot);
}

/** The jobs of one list, newest first. */
export function useListJobs(list: ListKind, id: string): StoredJob[] {
  return useJobList().filter((job) => job.request.list === list && job.request.id === id);
}
