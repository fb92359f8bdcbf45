import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setTimeout as sleep } from 'node:timers/promises';
import { sqliteCode, SQLITE_BUSY, SQLITE_LOCKED } from './sqlite-errors.ts';

// One explorer per STATE_DIR: two processes on one folder would each count the hour alone and
// spend it twice, and one could take the other's live file for a broken one. The first to start
// holds the folder; a second is refused, named with the holder's PID. The hold is an OS lock, an
// exclusive transaction on an empty SQLite file kept open for the process's life: the kernel
// lets go however the process ends, so there is no stale lock or reused PID to judge, and taking
// it is atomic. The PID beside it (`explorer.pid`) is only a note for the refusal. Replicas
// sharing Redis keep nothing in STATE_DIR and take no lock (start-explorer.ts).

export const LOCK_FILE = 'explorer.lock';
export const PID_FILE = 'explorer.pid';

/**
 * How long a start waits for a holder to let go: two processes starting at the same moment each
 * take the lock's first step (SQLite's shared lock), and the one ahead must wait for the one
 * behind to step back, or both would be refused.
 */
const LOCK_WAIT_MS = 500;
/** How long a refused start looks for the holder's note (written just after the lock). */
const NOTE_WAIT_MS = 500;

/**
 * The connections holding a lock. node:sqlite closes a connection it finds unreachable, and with
 * it the lock: a caller that dropped its StateDirLock must not lose the folder to a collection.
 */
const holding = new Set<DatabaseSync>();

export interface StateDirLock {
  release(): void;
}

/** Another live process holds the folder. */
export class StateDirInUse extends Error {
  readonly dir: string;
  readonly holderPid: number | null;
  constructor(dir: string, holderPid: number | null) {
    super(
      `STATE_DIR ${dir} is in use by another explorer ` +
        `(${holderPid === null ? 'PID unknown' : `PID ${holderPid}`}, holding ${join(dir, LOCK_FILE)}): ` +
        'one process per STATE_DIR; give this one a STATE_DIR of its own, or share state through Redis (REDIS_URL)',
    );
    this.name = 'StateDirInUse';
    this.dir = dir;
    this.holderPid = holderPid;
  }
}

/** The folder could not be locked for a reason other than a holder (unwritable, not a lock). */
export class StateDirUnlockable extends Error {
  readonly dir: string;
  constructor(dir: string, cause: unknown) {
    super(
      `STATE_DIR ${dir} cannot be locked: ${cause instanceof Error ? cause.message : String(cause)}`,
      { cause },
    );
    this.name = 'StateDirUnlockable';
    this.dir = dir;
  }
}

/**
 * Takes `dir` (created if missing) for this process. Throws StateDirInUse while another process
 * holds it, StateDirUnlockable when it cannot be locked at all.
 */
export async function lockStateDir(dir: string): Promise<StateDirLock> {
  const folder = resolve(dir);
  let db: DatabaseSync;
  try {
    mkdirSync(folder, { recursive: true });
    db = new DatabaseSync(join(folder, LOCK_FILE));
  } catch (error) {
    throw new StateDirUnlockable(folder, error);
  }
  try {
    // Before anything else, so that even the first step waits rather than fails.
    db.exec(`PRAGMA busy_timeout = ${LOCK_WAIT_MS}`);
    // Nothing is ever written inside it, so the file stays empty and no journal is left behind.
    db.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    db.close();
    const code = sqliteCode(error);
    if (code === SQLITE_BUSY || code === SQLITE_LOCKED)
      throw new StateDirInUse(folder, await holderOf(folder));
    throw new StateDirUnlockable(folder, error);
  }
  holding.add(db);
  writeNote(folder);
  return {
    release() {
      if (!holding.delete(db)) return;
      // The note first: once the lock goes, the next holder's note may take its place.
      rmSync(join(folder, PID_FILE), { force: true });
      db.close();
    },
  };
}

/** The holder's PID, atomically in place (a reader never meets half a note). */
function writeNote(folder: string): void {
  const temporary = join(folder, `${PID_FILE}.${process.pid}.tmp`);
  try {
    writeFileSync(temporary, `${process.pid}\n`);
    renameSync(temporary, join(folder, PID_FILE));
  } catch {
    // Only the refusal's message needs it.
  }
}

/** The PID in the holder's note, once the note names a live process; null if it never does. */
async function holderOf(folder: string): Promise<number | null> {
  for (let waited = 0; ; waited += 50) {
    const pid = notedPid(folder);
    if (pid !== null && isAlive(pid)) return pid;
    if (waited >= NOTE_WAIT_MS) return null;
    await sleep(50);
  }
}

function notedPid(folder: string): number | null {
  try {
    const pid = Number(readFileSync(join(folder, PID_FILE), 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
