import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { dirname } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

// The files a process alone keeps in STATE_DIR (the hour's spending, the pages it fetched), each
// an SQLite database through node:sqlite in WAL mode: a committed write survives the process
// being killed (it is in the log, which the next open replays). A file that cannot be opened or
// read (corrupt, not a database, unwritable) is moved aside (`<file>.broken-<time>`, with its
// log) and reported, a fresh one is made in its place, and if even that fails the explorer runs
// on without it: a state file never stops the server, and never answers with what it cannot
// read back.

export interface StateLogger {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

/**
 * Opens (or creates) the database at `path` with `schema` (idempotent SQL), checked page by page;
 * null when no usable file can be had there. `what` names it in the log ("the quota journal").
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
    db.exec(`
      PRAGMA journal_mode = WAL;
      PRAGMA synchronous = NORMAL;
      PRAGMA busy_timeout = 1000;
      ${schema}
    `);
    // Reads every page of the tables: a damaged file says so now, not mid-hour.
    const check = db.prepare('PRAGMA quick_check').get() as { quick_check?: string } | undefined;
    if (check?.quick_check !== 'ok') throw new Error(`quick_check: ${check?.quick_check}`);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
