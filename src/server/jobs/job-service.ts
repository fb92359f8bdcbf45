import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { isFinished, jobResultPath, type Job, type JobRequest } from '../../shared/jobs.ts';
import { EXPORT_TYPES, PLAYLIST_PAGE_SIZE } from '../../shared/whole-list.ts';
import { queuedJob, type JobRecord } from './job-records.ts';
import { runJob, type JobRunParts } from './job-runner.ts';
import type { JobStore } from './job-store.ts';

// The jobs as this process sees them: created (or found again: the same list, kind, format and
// client give the same job), read, cancelled, and run a few at a time, oldest first. Running is
// by lease (job-store.ts): every few seconds, and whenever a job is asked for or one ends, the
// process claims unfinished jobs nobody holds, up to its number at once, and renews each lease
// while the job runs. So a job a previous process left unfinished is taken up again where its
// record says it was (at once here: a lease held only in memory died with its process), and
// with replicas, a job whose runner died is taken over by another once the lease lapses.

export interface JobServiceOptions extends Omit<JobRunParts, 'store'> {
  store: JobStore;
  /** Jobs this process runs at once; the rest wait their turn. */
  atOnce: number;
  /** How long a runner's lease lasts unless renewed (every third of it). */
  leaseMs: number;
  /** Told of a store that could not be reached (Redis down): the jobs wait for it. */
  onStoreError?: (error: unknown) => void;
  /** Told when this process takes a job up (new, resumed or taken over) and lets it go. */
  onRun?: (event: { job: string; pages: number; running: boolean }) => void;
}

export interface JobService {
  create(request: JobRequest, client: string): Promise<{ job: Job; created: boolean }>;
  get(id: string): Promise<Job | undefined>;
  cancel(id: string): Promise<Job | undefined>;
  /** The record of a done job whose result is still kept. */
  result(id: string): Promise<JobRecord | undefined>;
  /** Jobs this process is running now. */
  runningHere(): number;
  /**
   * Stops running jobs and lets their leases go (they stay unfinished, to be taken up by the
   * next process, or at once by another replica).
   */
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
  const { store, atOnce, leaseMs, now = Date.now, onStoreError = () => {}, onRun } = options;
  /** This process's name on the leases it holds. */
  const owner = randomUUID();
  const running = new Map<string, { controller: AbortController; done: Promise<unknown> }>();
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

  /** A job that threw (not one that failed upstream): said failed, if the store can be reached. */
  const failed = async (id: string, error: unknown) => {
    const current = await store.get(id);
    if (current === undefined || isFinished(current.state)) return;
    await store.save(owner, {
      ...current,
      state: 'failed',
      updatedAt: now(),
      expiresAt: now() + options.resultTtlMs,
      problem: {
        type: 'about:blank',
        title: 'Internal Server Error',
        status: 500,
        code: 'internal_error',
        detail: `The job could not go on: ${String(error)}`,
      },
    });
  };

  const run = (record: JobRecord) => {
    const { id } = record;
    const controller = new AbortController();
    // The lease is kept while the job runs; once it is someone else's (taken over after a
    // pause longer than the lease, or the job cancelled elsewhere) the walk stops here.
    const renewal = setInterval(() => {
      store.renew(id, owner, leaseMs).then((kept) => kept || controller.abort(), onStoreError);
    }, leaseMs / 3);
    onRun?.({ job: id, pages: record.pages, running: true });
    const done = runJob(record, owner, { ...options, store }, controller.signal)
      .then((left) => onRun?.({ job: id, pages: left.pages, running: false }))
      .catch((error: unknown) => failed(id, error).catch(onStoreError))
      .finally(async () => {
        clearInterval(renewal);
        running.delete(id);
        await store.release(id, owner).catch(onStoreError);
        schedule();
      });
    running.set(id, { controller, done });
  };

  /** Claims what this process has room for, oldest first. */
  const fill = async () => {
    if (stopped || running.size >= atOnce) return;
    for (const id of await store.unfinished()) {
      if (stopped || running.size >= atOnce) break;
      if (running.has(id) || !(await store.claim(id, owner, leaseMs))) continue;
      const record = await store.get(id);
      if (record === undefined || isFinished(record.state) || stopped) {
        await store.release(id, owner);
        continue;
      }
      run(record);
    }
  };

  // One fill at a time; a call while one runs asks for another after it.
  let filling: Promise<void> | null = null;
  let again = false;
  const schedule = () => {
    if (stopped) return;
    if (filling !== null) {
      again = true;
      return;
    }
    filling = (async () => {
      do {
        again = false;
        await fill().catch(onStoreError);
      } while (again && !stopped);
    })().finally(() => {
      filling = null;
    });
  };

  const sweep = () => store.sweep(now()).catch(onStoreError);

  void sweep().then(schedule);
  // Often enough that a job whose runner died is taken over soon after its lease lapses.
  const scanner = setInterval(schedule, Math.max(250, leaseMs / 4));
  scanner.unref();
  const sweeper = setInterval(() => void sweep(), 60_000);
  sweeper.unref();

  return {
    async create(request, client) {
      const at = now();
      const answer = await store.create(
        queuedJob({ id: newId(), key: keyOf(request, client), client, request }, at),
      );
      if (answer.created) schedule();
      return { job: view(answer.record), created: answer.created };
    },
    async get(id) {
      const record = await store.get(id);
      return record === undefined ? undefined : view(record);
    },
    async cancel(id) {
      const record = await store.cancel(id, now());
      running.get(id)?.controller.abort();
      return record === undefined ? undefined : view(record);
    },
    async result(id) {
      const record = await store.get(id);
      return record?.state === 'done' && record.expiresAt !== null && record.expiresAt > now()
        ? record
        : undefined;
    },
    runningHere: () => running.size,
    async stop() {
      stopped = true;
      clearInterval(scanner);
      clearInterval(sweeper);
      for (const { controller } of running.values()) controller.abort();
      await filling;
      await Promise.all([...running.values()].map(({ done }) => done));
    },
  };
}
