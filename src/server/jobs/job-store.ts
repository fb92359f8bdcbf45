import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { isFinished } from '../../shared/jobs.ts';
import type { JobFiles } from './job-files.ts';
import type { JobRecord, JobRecords } from './job-records.ts';

// Where jobs are kept and who runs each, behind one port with two implementations: this
// process's (records in STATE_DIR's SQLite file or in memory, rows in files, leases in a map:
// one process holds a STATE_DIR, so nobody else could run its jobs), and the replicas' in
// Redis (shared-state/shared-jobs.ts), where any replica answers about any job and one at a
// time runs it. A runner holds a job's lease and renews it while it runs; every write it makes
// names it as the owner and is refused once the lease has gone to someone else or the job was
// cancelled, so a runner that lost its job (a pause longer than the lease, a cancel on another
// replica) can never write over the one that took it over.

export interface JobStore {
  get(id: string): Promise<JobRecord | undefined>;
  /**
   * The job already asked for under `record.key` (done, or not finished yet); otherwise
   * `record`, stored as a new job. A failed or cancelled job is not the one asked for again.
   */
  create(record: JobRecord): Promise<{ record: JobRecord; created: boolean }>;
  /** The IDs of the jobs not finished yet, oldest first: those to run. */
  unfinished(): Promise<string[]>;
  /** Cancels an unfinished job, dropping what it wrote; the job as it is then. */
  cancel(id: string, at: number): Promise<JobRecord | undefined>;
  /** Drops the records and results kept past their time. */
  sweep(now: number): Promise<void>;

  /** Becomes the job's runner for `ms` unless someone else is. */
  claim(id: string, owner: string, ms: number): Promise<boolean>;
  /** Keeps the lease for `ms` more; false when it is no longer `owner`'s. */
  renew(id: string, owner: string, ms: number): Promise<boolean>;
  release(id: string, owner: string): Promise<void>;

  // The runner's writes, each refused (false) once `owner` no longer holds the lease.
  /** Cuts the part file back to the record's whole pages (a resumed job reads on from there). */
  resume(owner: string, record: JobRecord): Promise<boolean>;
  save(owner: string, record: JobRecord): Promise<boolean>;
  /** Appends a page's rows and notes the page in one step. */
  commitPage(owner: string, record: JobRecord, text: string): Promise<boolean>;
  /**
   * Keeps aside the page just read (its body, and the continuation that asked for it) before
   * the next is asked for ahead, so that a restart reads it from here rather than ask the
   * upstream again; one a job, each replacing the last.
   */
  stash(id: string, continuation: string, body: Buffer): Promise<boolean>;
  /** The page kept aside, if there is a whole one. */
  stashed(id: string): Promise<{ continuation: string; body: Buffer } | null>;
  /** The rows written so far, a line at a time (a summary folds them). */
  partLines(id: string): AsyncIterable<string>;
  /**
   * Ends the job: the part file, with `tail` after it (or `replace` instead of it: a summary's
   * small document), becomes its result, and `record` (done) is kept until `record.expiresAt`.
   */
  finish(
    owner: string,
    record: JobRecord,
    ending: { tail: string } | { replace: string },
  ): Promise<boolean>;

  /** The result's size, or null when there is none. */
  resultSize(id: string): Promise<number | null>;
  /** Bytes `start` to `end` (inclusive) of the result, read a piece at a time. */
  readResult(id: string, start: number, end: number): ReadableStream<Uint8Array>;
  close(): Promise<void>;
}

/** A store of this process only: its records (SQLite or memory) and its files. */
export function localJobStore(records: JobRecords, files: JobFiles): JobStore {
  const leases = new Map<string, { owner: string; until: number }>();
  const holds = (id: string, owner: string) => {
    const lease = leases.get(id);
    return lease !== undefined && lease.owner === owner && lease.until > Date.now();
  };
  /**
   * A job's writes and its cancel, one after another: a runner's check and the write after it
   * (files first, then the record) are never split by a cancel, which would be written over.
   */
  const queues = new Map<string, Promise<unknown>>();
  const inTurn = <T>(id: string, work: () => Promise<T>): Promise<T> => {
    const next = (queues.get(id) ?? Promise.resolve()).then(work, work);
    const settled = next.catch(() => undefined);
    queues.set(id, settled);
    void settled.then(() => queues.get(id) === settled && queues.delete(id));
    return next;
  };
  /** A write by the job's runner, if it still is: holding the lease, the job not finished. */
  const fenced = (id: string, owner: string, write: () => Promise<void> | void) =>
    inTurn(id, async () => {
      const current = records.get(id);
      if (!holds(id, owner) || current === undefined || isFinished(current.state)) return false;
      await write();
      return true;
    });
  return {
    get: async (id) => records.get(id),
    async create(record) {
      const known = records.byKey(record.key);
      if (known && (known.state === 'done' || !isFinished(known.state)))
        return { record: known, created: false };
      if (known) {
        records.remove(known.id);
        await files.remove(known.id);
      }
      records.put(record);
      return { record, created: true };
    },
    unfinished: async () =>
      records
        .all()
        .filter((record) => !isFinished(record.state))
        .sort((a, b) => a.createdAt - b.createdAt)
        .map((record) => record.id),
    cancel: (id, at) =>
      inTurn(id, async () => {
        const record = records.get(id);
        if (record === undefined || isFinished(record.state)) return record;
        const cancelled: JobRecord = {
          ...record,
          state: 'cancelled',
          waitingUntil: null,
          updatedAt: at,
        };
        records.put(cancelled);
        leases.delete(id);
        await files.remove(id);
        return cancelled;
      }),
    async sweep(now) {
      for (const record of records.all())
        if (record.expiresAt !== null && record.expiresAt <= now) {
          records.remove(record.id);
          await files.remove(record.id);
        }
    },
    async claim(id, owner, ms) {
      const lease = leases.get(id);
      if (lease !== undefined && lease.owner !== owner && lease.until > Date.now()) return false;
      leases.set(id, { owner, until: Date.now() + ms });
      return true;
    },
    async renew(id, owner, ms) {
      if (!holds(id, owner)) return false;
      leases.set(id, { owner, until: Date.now() + ms });
      return true;
    },
    async release(id, owner) {
      if (leases.get(id)?.owner === owner) leases.delete(id);
    },
    resume: (owner, record) =>
      fenced(record.id, owner, async () => {
        await files.cut(record.id, record.bytes);
        records.put(record);
      }),
    save: (owner, record) => fenced(record.id, owner, () => records.put(record)),
    commitPage: (owner, record, text) =>
      fenced(record.id, owner, async () => {
        await files.append(record.id, text);
        records.put(record);
      }),
    async stash(id, continuation, body) {
      await files.stash(id, continuation, body);
      return true;
    },
    stashed: (id) => files.stashed(id),
    partLines: (id) => files.partLines(id),
    finish: (owner, record, ending) =>
      fenced(record.id, owner, async () => {
        if ('replace' in ending) await files.writeResult(record.id, ending.replace);
        else {
          await files.append(record.id, ending.tail);
          await files.finish(record.id);
        }
        records.put({ ...record, bytes: (await files.resultSize(record.id)) ?? 0 });
      }),
    resultSize: (id) => files.resultSize(id),
    readResult: (id, start, end) =>
      Readable.toWeb(
        createReadStream(files.resultPath(id), { start, end }),
      ) as ReadableStream<Uint8Array>,
    async close() {},
  };
}
