import type { Logger } from 'pino';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStateDatabase, type StateLogger } from '../disk/state-database.ts';
import type { PageSource } from '../pages/page-source.ts';
import type { ClientShares } from '../quota/client-shares.ts';
import type { QuotaGuard } from '../quota/quota-guard.ts';
import type { RedisConnection } from '../shared-state/redis-connection.ts';
import { sharedJobStore } from '../shared-state/shared-jobs.ts';
import { jobFiles } from './job-files.ts';
import { createJobPacer } from './job-pacer.ts';
import { JOB_RECORDS_SCHEMA, memoryJobRecords, sqliteJobRecords } from './job-records.ts';
import { createJobService, type JobService } from './job-service.ts';
import { localJobStore, type JobStore } from './job-store.ts';

// The jobs of one explorer, built by the composition root: with replicas, in Redis, where any
// replica answers about any job and takes over one whose runner died; else their records and
// files in STATE_DIR (a restart takes them up again) or, with no STATE_DIR, in memory and a
// temporary folder that the process removes when it stops.

export const JOBS_FILE = 'explorer-jobs.sqlite';

export interface BuiltJobs {
  service: JobService;
  store: JobStore;
  close(): Promise<void>;
}

export function buildJobs(options: {
  stateDir: string | null;
  /** The replicas' Redis; when set, jobs live there and STATE_DIR is not used. */
  redis: { connection: RedisConnection; keyPrefix: string } | null;
  /** The upstream's key of the state files' rows (disk/upstream-scope.ts). */
  scope: string;
  pageSource: Pick<PageSource, 'get'>;
  quota: Pick<QuotaGuard, 'reserveForJob' | 'secondsUntilJobRoom' | 'stats'>;
  shares: Pick<ClientShares, 'reserve' | 'room' | 'othersRoom' | 'perClient'>;
  readerReserve: number;
  atOnce: number;
  resultTtlMs: number;
  leaseMs: number;
  logger: StateLogger & Pick<Logger, 'info'>;
}): BuiltJobs {
  const { stateDir, redis, logger } = options;
  const db =
    stateDir === null || redis !== null
      ? null
      : openStateDatabase(
          join(stateDir, JOBS_FILE),
          JOB_RECORDS_SCHEMA,
          { name: 'the jobs file', without: 'jobs are kept in memory, for this process only' },
          logger,
        );
  const temporary =
    db === null && redis === null ? mkdtempSync(join(tmpdir(), 'explorer-jobs-')) : null;
  const store =
    redis !== null
      ? sharedJobStore({ ...redis, scope: options.scope, resultTtlMs: options.resultTtlMs })
      : localJobStore(
          db === null ? memoryJobRecords() : sqliteJobRecords(db, options.scope),
          jobFiles(temporary ?? join(stateDir!, 'jobs')),
        );
  let storeDown = false;
  const service = createJobService({
    pageSource: options.pageSource,
    pacer: createJobPacer(options),
    store,
    atOnce: options.atOnce,
    resultTtlMs: options.resultTtlMs,
    leaseMs: options.leaseMs,
    // A job's runs, in the log: which replica ran it, and from which page (a resumed or taken
    // over job starts past 0).
    onRun({ job, pages, running }) {
      logger.info({ job, pages }, running ? 'job taken up' : 'job let go');
    },
    // Said once a spell: the jobs wait for the store and go on when it answers again.
    onStoreError(error) {
      if (storeDown) return;
      storeDown = true;
      logger.warn({ err: error }, 'jobs: the store did not answer; jobs wait for it');
      setTimeout(() => (storeDown = false), 60_000).unref();
    },
  });
  return {
    service,
    store,
    async close() {
      await service.stop();
      db?.close();
      if (temporary !== null) rmSync(temporary, { recursive: true, force: true });
    },
  };
}
