import { setTimeout as sleep } from 'node:timers/promises';
import { JOBS_PATH, jobSchema, type Job } from '../shared/jobs.ts';

// For tests only: a client of the jobs' routes (shared/jobs.ts), as a script would use them:
// ask for a job (from a client address of its own, through a trusted X-Forwarded-For), read it
// back against the contract, and poll it until it reaches a state.

/** POST /api/jobs; `client` is sent as X-Forwarded-For (for an explorer with TRUST_PROXY). */
export const postJob = (url: string, body: unknown, client?: string) =>
  fetch(`${url}${JOBS_PATH}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(client === undefined ? {} : { 'X-Forwarded-For': client }),
    },
    body: JSON.stringify(body),
  });

/** The job at `location`, checked against the contract; throws on any other answer than 200. */
export async function readJob(url: string, location: string): Promise<Job> {
  const response = await fetch(url + location);
  if (response.status !== 200)
    throw new Error(`${location} answered ${response.status}: ${await response.text()}`);
  return jobSchema.parse(await response.json());
}

/** Reads the job every `everyMs` until `done` says so (calling `onRead` each time), or throws. */
export async function untilJob(
  url: string,
  location: string,
  done: (job: Job) => boolean,
  { timeoutMs = 60_000, everyMs = 50, onRead = () => {} } = {},
): Promise<Job> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    onRead();
    const job = await readJob(url, location);
    if (done(job)) return job;
    if (Date.now() > deadline)
      throw new Error(`still ${job.state}: ${JSON.stringify(job.progress)}`);
    await sleep(everyMs);
  }
}
