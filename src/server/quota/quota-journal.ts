import type { DatabaseSync, StatementSync } from 'node:sqlite';
import type { StateLogger } from '../disk/state-database.ts';
import { HOUR_SECONDS, windowLayout } from './quota-window.ts';

// The window's spending on disk, for a process alone: every call a budget lets through is
// written before it is made, so a restart or a crash starts with the window as it was rather
// than spend it twice. SQLite in WAL mode (disk/state-database.ts): what is committed survives a
// kill, and a damaged file is moved aside while the window runs on in memory. Rows are keyed by
// upstream (disk/upstream-scope.ts), so a journal reads only its own upstream's spending, and
// rows older than the longest window are pruned.

export interface BudgetJournal {
  /** The calls still in the window (`second` since the epoch, `calls` then), and the pause. */
  readonly restored: { calls: Array<[second: number, calls: number]>; pausedUntilMs: number };
  record(second: number, calls: number): void;
  pause(untilMs: number): void;
}

export interface QuotaJournal {
  /**
   * The journal of one budget of this journal's upstream (the account's quota, warming's
   * share): `name` tells them apart. `windowSeconds` is the budget's window (default an hour):
   * the calls of its span (quota-window.ts) are read back.
   */
  budget(name: string, windowSeconds?: number): BudgetJournal;
}

/** Rows older than the window go, at most this often (they are harmless meanwhile). */
const PRUNE_EVERY_MS = 60_000;

/** The journal's tables, in STATE_DIR's database (process/state-file.ts). */
export const QUOTA_JOURNAL_SCHEMA = `
  CREATE TABLE IF NOT EXISTS budget_calls (
    budget TEXT NOT NULL,
    second INTEGER NOT NULL,
    calls INTEGER NOT NULL,
    PRIMARY KEY (budget, second)
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS budget_pause (
    budget TEXT PRIMARY KEY,
    until_ms INTEGER NOT NULL
  ) WITHOUT ROWID;`;

/**
 * The journal in `db` (at `path`, for the log), for the upstream whose rows are keyed `scope`
 * (disk/upstream-scope.ts).
 */
export function openQuotaJournal(
  db: DatabaseSync,
  path: string,
  scope: string,
  logger: StateLogger,
  now: () => number = Date.now,
): QuotaJournal {
  const add = db.prepare(
    `INSERT INTO budget_calls (budget, second, calls) VALUES (?, ?, ?)
     ON CONFLICT (budget, second) DO UPDATE SET calls = calls + excluded.calls`,
  );
  const setPause = db.prepare(
    `INSERT INTO budget_pause (budget, until_ms) VALUES (?, ?)
     ON CONFLICT (budget) DO UPDATE SET until_ms = max(until_ms, excluded.until_ms)`,
  );
  // Every upstream's rows: another's past window and its lapsed pauses are of no use to anyone.
  const prune = db.prepare('DELETE FROM budget_calls WHERE second <= ?');
  const prunePauses = db.prepare('DELETE FROM budget_pause WHERE until_ms <= ?');
  const callsOf = db.prepare(
    'SELECT second, calls FROM budget_calls WHERE budget = ? AND second > ? ORDER BY second',
  );
  const pauseOf = db.prepare('SELECT until_ms FROM budget_pause WHERE budget = ?');
  let prunedAt = 0;
  /** Rows older than this many seconds are of no budget's window: the longest span asked. */
  let keepSeconds = HOUR_SECONDS;
  let failed = false;

  /** A write that fails (the disk full, the file gone) stops the journal, never a lookup. */
  const write = (statement: StatementSync, ...values: (string | number)[]) => {
    if (failed) return;
    try {
      statement.run(...values);
      const ms = now();
      if (ms - prunedAt >= PRUNE_EVERY_MS) {
        prunedAt = ms;
        prune.run(Math.floor(ms / 1000) - keepSeconds);
        prunePauses.run(ms);
      }
    } catch (error) {
      failed = true;
      logger.error(
        { err: error, path },
        'the quota journal stopped: the window is kept in memory only',
      );
    }
  };

  return {
    budget(budget, windowSeconds = HOUR_SECONDS) {
      const name = `${scope}/${budget}`;
      const { spanSeconds } = windowLayout(windowSeconds);
      keepSeconds = Math.max(keepSeconds, spanSeconds);
      const since = Math.floor(now() / 1000) - spanSeconds;
      const rows = callsOf.all(name, since) as Array<{ second: number; calls: number }>;
      const pause = pauseOf.get(name) as { until_ms: number } | undefined;
      return {
        restored: {
          calls: rows.map((row) => [row.second, row.calls]),
          pausedUntilMs: pause?.until_ms ?? 0,
        },
        record: (second, calls) => write(add, name, second, calls),
        pause: (untilMs) => write(setPause, name, untilMs),
      };
    },
  };
}
