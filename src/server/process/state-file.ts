import type { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { openStateDatabase, type StateLogger } from '../disk/state-database.ts';
import { JOB_RECORDS_SCHEMA } from '../jobs/job-records.ts';
import { PAGES_SCHEMA } from '../pages/disk-pages.ts';
import { QUOTA_JOURNAL_SCHEMA } from '../quota/quota-journal.ts';

// STATE_DIR's one database, beside its lock (disk/state-dir-lock.ts): the window's spending, the
// pages fetched and the jobs' records, each in tables of their own. One file is one thing to
// back up, check and move aside when damaged (disk/state-database.ts); the parts open their
// stores over it and the composition root closes it after them.

export const STATE_FILE = 'explorer.sqlite';

/** The database in `stateDir`, or null when no usable file can be had there (logged). */
export function openStateFile(
  stateDir: string,
  logger: StateLogger,
  now: () => number = Date.now,
): DatabaseSync | null {
  return openStateDatabase(
    join(stateDir, STATE_FILE),
    [QUOTA_JOURNAL_SCHEMA, PAGES_SCHEMA, JOB_RECORDS_SCHEMA].join('\n'),
    {
      name: 'the state file',
      without: 'the window, the pages and the jobs are kept in memory only',
    },
    logger,
    now,
  );
}
