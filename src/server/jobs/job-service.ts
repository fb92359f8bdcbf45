import { createHash, randomBytes } from 'node:crypto';
import { isFinished, jobResultPath, type Job, type JobRequest } from '../../shared/jobs.ts';
import { EXPORT_TYPES, PLAYLIST_PAGE_SIZE } from '../../shared/whole-list.ts';
import type { JobFiles } from './job-files.ts';
import type { JobRecord, JobRecords } from './job-records.ts';
import { runJob, type JobRunParts } from './job-runner.ts';

// The jobs of one process: created (or found again: the same list, kind, format and client
// give the same job), run a few at a time in the order they came, cancelled, read, and their
// results dropped once kept long enough. At start, every job a previous process left
// unfinished is taken up again where its record says it was.

export interface JobServiceOptions extends Omit<JobRunParts, 'records' | 'files'> {
  records: JobRecords;
  files: JobFiles;
  /** Jobs that run at once; the rest wait their turn. */
  atOnce: number;
}

export interface JobService {
  create(request: JobRequest, client: string): { job: Job; created: boolean };
  get(id: string): Job | undefined;
  cancel(id: string): Job | undefined;
  /** The record of a done job whose result is still kept. */
  result(id: string): JobRecord | undefined;
  /** Stops running jobs (they stay unfinished on disk, to be taken up by the next process). */
  stop(): Promise<void>;
}

/** 128 random bits as base64url: an address nobody can guess. */
const newId = () => randomBytes(16).toString('base64url');

const keyOf = (request: JobRequest, client: string) =>
  createHash('sha256')
    .update(JSON.stringify([client, request.list, request.id, request.kind, request.format ?? '']))
    .digest('base64url');

/** The result's media type. */
export function resultType(record: JobRecord): string {
  const { kind, format } = record.request;
  if (kind === 'export') return EXPORT_TYPES[format ?? 'csv'];
  return 'application/json; charset=utf-8';
}

export function createJobService(options: JobServiceOptions): JobService {
  const { records, files, atOnce, now = Date.now } = options;
  const running = new Map<string, { controller: AbortController; done: Promise<unknown> }>();
  const queue: string[] = [];
  let stopped = false;

  const iso = (ms: number) => new Date(ms).toISOString();

  /** What is known of the time left: pages at the pace so far, once the length is known. */
  const estimateOf = (record: JobRecord): Job['estimate'] => {
    if (isFinished(record.state) || record.totalItems === null || record.pages === 0) return null;
    const perPage =
      record.request.list === 'playlist' ? PLAYLIST_PAGE_SIZE : record.items / record.pages;
    const pagesLeft = Math.max(0, Math.ceil((record.totalItems - record.items) / perPage));
    const elapsed = (record.updatedAt - record.createdAt) / 1000;
    const secondsLeft = record.pages > 1 ? (elapsed / record.pages) * pagesLeft : null;
    return {
      pagesLeft,
      secondsLeft,
      endsAt: secondsLeft === null ? null : iso(now() + secondsLeft * 1000),
    };
  };

  const view = (record: JobRecord): Job => ({
    id: record.id,
    request: record.request,
    state: record.state,
    createdAt: iso(record.createdAt),
    updatedAt: iso(record.updatedAt),
    progress: {
      pages: record.pages,
      items: record.items,
      lookups: record.lookups,
      totalItems: record.totalItems ?? (record.state === 'done' ? record.items : null),
    },
    waitingUntil: record.waitingUntil === null ? null : iso(record.waitingUntil),
    estimate: estimateOf(record),
    problem: record.problem,
    result:
      record.state === 'done' && record.expiresAt !== null
        ? {
            href: jobResultPath(record.id),
            type: resultType(record),
            bytes: record.bytes,
            items: record.items,
            expiresAt: iso(record.expiresAt),
          }
        : null,
  });

  const pump = () => {
    while (!stopped && running.size < atOnce && queue.length > 0) {
      const id = queue.shift()!;
      const record = records.get(id);
      if (record === undefined || isFinished(record.state)) continue;
      const controller = new AbortController();
      const done = runJob(record, { ...options, records, files }, controller.signal)
        .catch((error: unknown) => {
          const current = records.get(id);
          if (current && !isFinished(current.state))
            records.put({
              ...current,
              state: 'failed',
              updatedAt: now(),
              problem: {
                type: 'about:blank',
                title: 'Internal Server Error',
                status: 500,
                code: 'internal_error',
                detail: `The job could not go on: ${String(error)}`,
              },
            });
        })
        .finally(() => {
          running.delete(id);
          pump();
        });
      running.set(id, { controller, done });
    }
  };

  const sweep = () => {
    for (const record of records.all())
      if (record.expiresAt !== null && record.expiresAt <= now()) {
        records.remove(record.id);
        void files.remove(record.id);
      }
  };

  // Taken up again: what a previous process left unfinished, in the order it was asked for.
  sweep();
  for (const record of records.all().sort((a, b) => a.createdAt - b.createdAt))
    if (!isFinished(record.state)) {
      records.put({ ...record, state: 'queued', waitingUntil: null });
      queue.push(record.id);
    }
  pump();
  const sweeper = setInterval(sweep, 60_000);
  sweeper.unref();

  return {
    create(request, client) {
      sweep();
      const key = keyOf(request, client);
      const known = records.byKey(key);
      // A cancelled or failed job is not the one asked for again: a new one is made.
      if (known && (known.state === 'done' || !isFinished(known.state)))
        return { job: view(known), created: false };
      if (known) records.remove(known.id);
      const at = now();
      const record: JobRecord = {
        id: newId(),
        key,
        client,
        request,
        state: 'queued',
        createdAt: at,
        updatedAt: at,
        next: null,
        pages: 0,
        items: 0,
        lookups: 0,
        totalItems: null,
        bytes: 0,
        waitingUntil: null,
        problem: null,
        expiresAt: null,
      };
      records.put(record);
      queue.push(record.id);
      pump();
      return { job: view(records.get(record.id) ?? record), created: true };
    },
    get(id) {
      const record = records.get(id);
      return record === undefined ? undefined : view(record);
    },
    cancel(id) {
      const record = records.get(id);
      if (record === undefined) return undefined;
      if (!isFinished(record.state)) {
        running.get(id)?.controller.abort();
        const index = queue.indexOf(id);
        if (index >= 0) queue.splice(index, 1);
        records.put({ ...record, state: 'cancelled', waitingUntil: null, updatedAt: now() });
        void files.remove(id);
      }
      return view(records.get(id)!);
    },
    result(id) {
      const record = records.get(id);
      return record?.state === 'done' && record.expiresAt !== null && record.expiresAt > now()
        ? record
        : undefined;
    },
    async stop() {
      stopped = true;
      clearInterval(sweeper);
      for (const { controller } of running.values()) controller.abort();
      await Promise.all([...running.values()].map(({ done }) => done));
    },
  };
}
