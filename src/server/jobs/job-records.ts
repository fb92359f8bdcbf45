import type { DatabaseSync } from 'node:sqlite';
import type { JobRequest, JobState } from '../../shared/jobs.ts';
import type { Problem } from '../../shared/problem.ts';

// What a job is and how far it has come, kept where a restart finds it: in STATE_DIR, an
// SQLite table in the state database's way (WAL: a committed write survives the process being
// killed), rows keyed by the upstream like every other row there (disk/upstream-scope.ts); or,
// with no STATE_DIR, in memory. A record is written after each page's rows are in the result
// file, with the file's length then: a job resumed after a crash cuts its file back to that
// length and goes on from `next`, so a page is read twice at most once per restart and the file
// holds each row once.

export interface JobRecord {
  id: string;
  /** Who asked for what: the same list, kind, format and client give the same job. */
  key: string;
  client: string;
  request: JobRequest;
  state: JobState;
  createdAt: number;
  updatedAt: number;
  /** The next page's continuation; null before the first page and after the last. */
  next: string | null;
  pages: number;
  items: number;
  lookups: number;
  totalItems: number | null;
  /** Bytes of the result file that hold whole pages. */
  bytes: number;
  waitingUntil: number | null;
  problem: Problem | null;
  /** Once done: until when its result is kept. */
  expiresAt: number | null;
}

/** A new job's record: queued, with nothing read yet. */
export const queuedJob = (
  fields: Pick<JobRecord, 'id' | 'key' | 'client' | 'request'>,
  at: number,
): JobRecord => ({
  ...fields,
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
});

export interface JobRecords {
  get(id: string): JobRecord | undefined;
  byKey(key: string): JobRecord | undefined;
  put(record: JobRecord): void;
  remove(id: string): void;
  /** Every record, for resuming the unfinished and dropping the expired. */
  all(): JobRecord[];
}

export function memoryJobRecords(): JobRecords {
  const records = new Map<string, JobRecord>();
  return {
    get: (id) => records.get(id),
    byKey: (key) => [...records.values()].find((record) => record.key === key),
    put: (record) => void records.set(record.id, { ...record }),
    remove: (id) => void records.delete(id),
    all: () => [...records.values()],
  };
}

export const JOB_RECORDS_SCHEMA = `
  CREATE TABLE IF NOT EXISTS jobs (
    scope TEXT NOT NULL,
    id TEXT NOT NULL,
    key TEXT NOT NULL,
    record TEXT NOT NULL,
    PRIMARY KEY (scope, id)
  );
  CREATE INDEX IF NOT EXISTS jobs_by_key ON jobs (scope, key);
`;

/** Records in `db` (opened with JOB_RECORDS_SCHEMA), those of the upstream `scope` only. */
export function sqliteJobRecords(db: DatabaseSync, scope: string): JobRecords {
  const get = db.prepare('SELECT record FROM jobs WHERE scope = ? AND id = ?');
  const byKey = db.prepare('SELECT record FROM jobs WHERE scope = ? AND key = ?');
  const put = db.prepare(
    'INSERT INTO jobs (scope, id, key, record) VALUES (?, ?, ?, ?) ' +
      'ON CONFLICT (scope, id) DO UPDATE SET key = excluded.key, record = excluded.record',
  );
  const remove = db.prepare('DELETE FROM jobs WHERE scope = ? AND id = ?');
  const all = db.prepare('SELECT record FROM jobs WHERE scope = ?');
  const read = (row: unknown) =>
    row === undefined ? undefined : (JSON.parse((row as { record: string }).record) as JobRecord);
  return {
    get: (id) => read(get.get(scope, id)),
    byKey: (key) => read(byKey.get(scope, key)),
    put: (record) => void put.run(scope, record.id, record.key, JSON.stringify(record)),
    remove: (id) => void remove.run(scope, id),
    all: () => all.all(scope).map((row) => read(row)!),
  };
}
