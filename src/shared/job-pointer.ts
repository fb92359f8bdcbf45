import { z } from 'zod';
import { JOBS_PATH, jobRequestSchema, type JobRequest } from './jobs.ts';
import type { ProblemCode } from './problem-codes.ts';

// Where a synchronous whole-list answer that cannot be given now sends its reader: the job that
// does the same work (jobs.ts). A refusal that a job would not meet (the window or the client's
// share spent, the list too long to hold, the walks' slots taken) carries, as a member `job` of
// its problem document (RFC 9457 §3.2), the request that starts that job: the client sends
// `body` as JSON to `href` with `method`, as it is. The same request from the same client gives
// the same job, so following a pointer twice starts one job (docs/jobs.md).

export const jobPointerSchema = z.object({
  method: z.literal('POST'),
  /** Where to send it: the jobs' path (`JOBS_PATH`), as a reference relative to the server. */
  href: z.string(),
  body: jobRequestSchema,
});
export type JobPointer = z.infer<typeof jobPointerSchema>;

export const jobPointer = (body: JobRequest): JobPointer => ({
  method: 'POST',
  href: JOBS_PATH,
  body,
});

/**
 * The refusals a job gets past, so that they carry a pointer to it: a job waits for the window
 * and the client's share to have room (and for an upstream that asked to slow down), is not paced
 * by the client's allowance for stray scripts, holds no walk slot, and writes a list of any
 * length to disk.
 */
export const JOB_POINTER_CODES = [
  'quota_exhausted',
  'share_exhausted',
  'rate_limited',
  'upstream_rate_limited',
  'too_many_walks',
  'walks_busy',
  'list_too_long',
] as const satisfies readonly ProblemCode[];

const withPointer = z.object({ job: jobPointerSchema });

/** The pointer a problem document carries, or undefined when it has none (or a malformed one). */
export function jobPointerOf(problem: unknown): JobPointer | undefined {
  const read = withPointer.safeParse(problem);
  return read.success ? read.data.job : undefined;
}
