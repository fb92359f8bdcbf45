import { z } from 'zod';
import { problemSchema } from './problem.ts';
import { exportFormats, listKindSchema } from './whole-list.ts';

// Whole-list work as jobs that outlive the request that asked for them: a summary, an export or a
// load-all of any list, however long, even one that costs more than a window's quota. A job walks
// the list at the pace the quota allows, waits when the window is spent, and survives a restart,
// resuming from the last page read. The routes are under JOBS_PATH (docs/jobs.md). Asking twice
// for the same list, kind, format and client gives the same job. A job's ID is unguessable:
// whoever holds its address may read it; nobody can list them.

export const JOBS_PATH = '/api/jobs';

export const jobKinds = ['summary', 'export', 'load-all'] as const;
export const jobKindSchema = z.enum(jobKinds);
export type JobKind = z.infer<typeof jobKindSchema>;

/** 22 characters of base64url: 128 random bits. */
export const JOB_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

export const jobRequestSchema = z
  .object({
    list: listKindSchema,
    id: z.string().min(1).max(64),
    kind: jobKindSchema,
    /** An export's format (csv by default); a load-all's result is JSON, a summary's too. */
    format: z.enum(exportFormats).optional(),
  })
  .strict();
export type JobRequest = z.infer<typeof jobRequestSchema>;

export const jobStates = ['queued', 'running', 'waiting', 'done', 'failed', 'cancelled'] as const;
export const jobStateSchema = z.enum(jobStates);
export type JobState = z.infer<typeof jobStateSchema>;

/** A job that will not change any more. */
export const isFinished = (state: JobState) =>
  state === 'done' || state === 'failed' || state === 'cancelled';

export const jobSchema = z.object({
  id: z.string().regex(JOB_ID_PATTERN),
  request: jobRequestSchema,
  state: jobStateSchema,
  /** ISO 8601 times. */
  createdAt: z.string(),
  updatedAt: z.string(),
  progress: z.object({
    pages: z.number().int().nonnegative(),
    items: z.number().int().nonnegative(),
    /** Upstream lookups this job has spent (pages the cache held are free). */
    lookups: z.number().int().nonnegative(),
    /** The list's length once known (a playlist states it; a channel's is known at its end). */
    totalItems: z.number().int().nonnegative().nullable(),
  }),
  /** While waiting for quota: when it goes on (ISO 8601). */
  waitingUntil: z.string().nullable(),
  /** As soon as anything is known: what is left, and when it will end. */
  estimate: z
    .object({
      pagesLeft: z.number().int().nonnegative().nullable(),
      secondsLeft: z.number().nonnegative().nullable(),
      endsAt: z.string().nullable(),
    })
    .nullable(),
  /** Why it failed. */
  problem: problemSchema.nullable(),
  /** Once done: the result, and until when it is kept. */
  result: z
    .object({
      href: z.string(),
      type: z.string(),
      bytes: z.number().int().nonnegative(),
      items: z.number().int().nonnegative(),
      expiresAt: z.string(),
    })
    .nullable(),
});
export type Job = z.infer<typeof jobSchema>;

export const jobPath = (job: string) => `${JOBS_PATH}/${job}`;
export const jobResultPath = (job: string) => `${JOBS_PATH}/${job}/result`;
