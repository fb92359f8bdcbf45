import type { QuotaGuard } from './quota-guard.ts';

// For background work (whole-list jobs, src/server/jobs/): how long until a job's next calls
// fit, out of the jobs' part of the window only (quota-guard.ts: the readers' reserve,
// JOB_READER_RESERVE, is never theirs), and counting an upstream 429's pause, which stops jobs
// as it stops readers. A job then takes its calls with `quota.reserveForJob(calls)`, which checks
// and counts in one step; this only says when to try.

/** Seconds until `calls` more job calls may go (0: now), the pause and the window together. */
export async function secondsUntilJobCalls(
  quota: Pick<QuotaGuard, 'stats' | 'secondsUntilJobRoom'>,
  calls: number,
): Promise<number> {
  const { pausedForSeconds } = quota.stats();
  return Math.max(pausedForSeconds, await quota.secondsUntilJobRoom(calls));
}
