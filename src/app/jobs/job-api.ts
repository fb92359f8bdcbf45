import { queryOptions } from '@tanstack/react-query';
import {
  isFinished,
  jobPath,
  jobSchema,
  JOBS_PATH,
  type Job,
  type JobRequest,
} from '../../shared/jobs.ts';
import { ApiError } from '../api/api-error.ts';
import { getParsed, sendParsed } from '../api/api-client.ts';

// The jobs' API (shared/jobs.ts, docs/jobs.md "The API"): start or find again, read, cancel.
// A job is read again while it is unfinished: every POLL_MS, or, while it waits for quota, at
// the moment it goes on (no more than POLL_WAITING_MAX_MS apart, since another job or a cancel
// elsewhere may change it). It stops once the job has ended or the server no longer has it.

const POLL_MS = 1500;
const POLL_WAITING_MAX_MS = 5000;
/** After a failed read (no network, a busy server): asked again, less often. */
const POLL_AFTER_FAILURE_MS = 5000;

export const startJob = (request: JobRequest) => sendParsed('POST', JOBS_PATH, jobSchema, request);
export const cancelJob = (id: string) => sendParsed('DELETE', jobPath(id), jobSchema);

/** The server answers 404 for a job it no longer has (its result expired) or never had. */
export const isGone = (error: unknown) => error instanceof ApiError && error.status === 404;

/** How long until a job is read again; false: never (ended, or gone). */
export function nextPoll(job: Job | undefined, error: unknown, now: number): number | false {
  if (error && isGone(error)) return false;
  if (job !== undefined && isFinished(job.state)) return false;
  if (error) return POLL_AFTER_FAILURE_MS;
  if (job?.state === 'waiting' && job.waitingUntil !== null) {
    const until = Date.parse(job.waitingUntil) - now;
    return Math.min(POLL_WAITING_MAX_MS, Math.max(POLL_MS, until));
  }
  return POLL_MS;
}

export const jobKey = (id: string) => ['jobs', id] as const;

export function jobOptions(id: string) {
  return queryOptions({
    queryKey: jobKey(id),
    queryFn: ({ signal }) => getParsed(jobPath(id), jobSchema, signal),
    // Fresh for as long as it is polled: a view that mounts meanwhile reads the same answer.
    staleTime: POLL_MS,
    refetchInterval: (query) => nextPoll(query.state.data, query.state.error, Date.now()),
    // A job ends while the reader is in another tab: that is when they want to hear of it.
    refetchIntervalInBackground: true,
  });
}
