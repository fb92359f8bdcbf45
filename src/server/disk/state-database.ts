import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { sqliteCode, SQLITE_CORRUPT, SQLITE_NOTADB } from './sqlite-errors.ts';

// The files a process alone keeps in STATE_DIR (the hour's spending, the pages it fetched), each
// an SQLite database in WAL mode, so a committed write survives the process being killed. A file
// that is damaged (corrupt, not a database, or failing the check) is moved aside
// (`<file>.broken-<time>`, with its log) and a fresh one made. Any other failure (busy, locked,
// unwritable, disk full) says nothing about the bytes: the file is left where it is, since it may
// be another process's live hour, and the explorer runs on without it. Either way a state file
// never stops the server, and never answers with what it cannot read back.

export interface StateLogger {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/** What the check of a file's pages found wrong. */
class DamagedFile extends Error {}

/** Whether `error` is about the file's bytes, rather than about reaching them. */
const isDamage = (error: unknown) => {
  if (error instanceof DamagedFile) return true;
  const code = sqliteCode(error);
  return code === SQLITE_CORRUPT || code === SQLITE_NOTADB;
};

/**
 * Opens (or creates) the database at `path` with `schema` (idempotent SQL), checked page by page;
 * null when no usable file can be had there. `what` names it in the log ("the state file").
 */
export function openStateDatabase(
  path: string,
  schema: string,
  what: { name: string; without: string },
  logger: StateLogger,
  now: () => number = Date.now,
): DatabaseSync | null {
  try {
    return openAt(path, schema);
  } catch (error) {
    if (!isDamage(error)) {
      logger.error(
        { err: error, path, movedTo: null },
        `${what.name} cannot be used (left in place): ${what.without}`,
      );
      return null;
    }
    const aside = existsSync(path) ? `${path}.broken-${now()}` : null;
    if (aside !== null) {
      try {
        renameSync(path, aside);
        for (const extra of ['-wal', '-shm'])
          if (existsSync(path + extra)) renameSync(path + extra, aside + extra);
      } catch {
        // Moving it failed too: still run, without it.
      }
    }
    logger.error(
      { err: error, path, movedTo: aside },
      `${what.name} cannot be used: ${what.without}`,
    );
    if (aside === null) return null;
    try {
      return openAt(path, schema);
    } catch {
      return null;
    }
  }
}

function openAt(path: string, schema: string): DatabaseSync {
  mkdirSync(dirname(path), { recursive: true });
  const db = new DatabaseSync(path);
  try {
    // First of all: switching to WAL and every statement after it may meet another
    // connection's lock, and must wait for it rather than fail as if the file were damaged.
    db.exec('PRAGMA busy_timeout = 1000');
    db.exec(`
      PRAGMA journal_mode = WAL;
      PRAGMA synchronous = NORMAL;
      ${schema}
    `);
    // Reads every page of the tables: a damaged file says so now, not mid-hour.
    const check = db.prepare('PRAGMA quick_check').get() as { quick_check?: string } | undefined;
    if (check?.quick_check !== 'ok') throw new DamagedFile(`quick_check: ${check?.quick_check}`);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
