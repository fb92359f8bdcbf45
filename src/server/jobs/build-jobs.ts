import type { DatabaseSync } from 'node:sqlite';
import type { Logger } from 'pino';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PageSource } from '../pages/page-source.ts';
import type { ClientShares } from '../quota/client-shares.ts';
import type { QuotaGuard } from '../quota/quota-guard.ts';
import { jobFiles } from './job-files.ts';
import { createJobPacer } from './job-pacer.ts';
import { memoryJobRecords, sqliteJobRecords } from './job-records.ts';
import { createJobService, type JobService } from './job-service.ts';
import { localJobStore, type JobStore } from './job-store.ts';

// The jobs of one explorer, built by the composition root over the store the deployment's
// state gives it: the replicas' Redis, or this process's records and files (openLocalJobStore).
// A process alone keeps them in STATE_DIR, where a restart takes them up again, or with no
// STATE_DIR in memory and a temporary folder that is removed when the process stops.

export interface BuiltJobs {
  service: JobService;
  store: JobStore;
  close(): Promise<void>;
}

/** This process's job store: its records in `db` (or memory), its files in STATE_DIR/jobs. */
export function openLocalJobStore(options: {
  stateDir: string | null;
  /** STATE_DIR's database, when there is one to keep records in. */
  db: DatabaseSync | null;
  /** The upstream's key of the state file's rows (disk/upstream-scope.ts). */
  scope: string;
}): JobStore {
  const { stateDir, db } = options;
  const temporary =
    stateDir === null || db === null ? mkdtempSync(join(tmpdir(), 'explorer-jobs-')) : null;
  const store = localJobStore(
    db === null ? memoryJobRecords() : sqliteJobRecords(db, options.scope),
    jobFiles(temporary ?? join(stateDir!, 'jobs')),
  );
  return {
    ...store,
    async close() {
      await store.close();
      if (temporary !== null) rmSync(temporary, { recursive: true, force: true });
    },
  };
}

export function buildJobs(options: {
  store: JobStore;
  pageSource: Pick<PageSource, 'get'>;
  quota: Pick<QuotaGuard, 'reserveForJob' | 'secondsUntilJobRoom' | 'stats'>;
  shares: Pick<ClientShares, 'reserve' | 'room' | 'othersRoom' | 'perClient'>;
  readerReserve: number;
  atOnce: number;
  resultTtlMs: number;
  leaseMs: number;
  logger: Pick<Logger, 'info' | 'warn'>;
}): BuiltJobs {
  const { store, logger } = options;
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
  return { service, store, close: () => service.stop() };
}
