import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStateDatabase, type StateLogger } from '../disk/state-database.ts';
import type { PageSource } from '../pages/page-source.ts';
import type { ClientShares } from '../quota/client-shares.ts';
import type { QuotaGuard } from '../quota/quota-guard.ts';
import { jobFiles, type JobFiles } from './job-files.ts';
import { createJobPacer } from './job-pacer.ts';
import { JOB_RECORDS_SCHEMA, memoryJobRecords, sqliteJobRecords } from './job-records.ts';
import { createJobService, type JobService } from './job-service.ts';

// The jobs of one explorer, built by the composition root: their records and files in
// STATE_DIR (a restart takes them up again) or, with no STATE_DIR, in memory and a temporary
// folder that the process removes when it stops.

export const JOBS_FILE = 'explorer-jobs.sqlite';

export interface BuiltJobs {
  service: JobService;
  files: JobFiles;
  close(): Promise<void>;
}

export function buildJobs(options: {
  stateDir: string | null;
  /** The upstream's key of the state files' rows (disk/upstream-scope.ts). */
  scope: string;
  pageSource: Pick<PageSource, 'get'>;
  quota: Pick<QuotaGuard, 'reserveForJob' | 'secondsUntilJobRoom' | 'stats'>;
  shares: Pick<ClientShares, 'reserve' | 'room' | 'perClient' | 'secondsUntilRoomFor'>;
  readerReserve: number;
  atOnce: number;
  resultTtlMs: number;
  logger: StateLogger;
}): BuiltJobs {
  const { stateDir, logger } = options;
  const db =
    stateDir === null
      ? null
      : openStateDatabase(
          join(stateDir, JOBS_FILE),
          JOB_RECORDS_SCHEMA,
          { name: 'the jobs file', without: 'jobs are kept in memory, for this process only' },
          logger,
        );
  const temporary = db === null ? mkdtempSync(join(tmpdir(), 'explorer-jobs-')) : null;
  const files = jobFiles(temporary ?? join(stateDir!, 'jobs'));
  const service = createJobService({
    pageSource: options.pageSource,
    pacer: createJobPacer(options),
    records: db === null ? memoryJobRecords() : sqliteJobRecords(db, options.scope),
    files,
    atOnce: options.atOnce,
    resultTtlMs: options.resultTtlMs,
  });
  return {
    service,
    files,
    async close() {
      await service.stop();
      db?.close();
      if (temporary !== null) rmSync(temporary, { recursive: true, force: true });
    },
  };
}
