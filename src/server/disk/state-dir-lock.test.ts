import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, describe, expect, it } from 'vitest';
import {
  lockStateDir,
  LOCK_FILE,
  PID_FILE,
  StateDirInUse,
  StateDirUnlockable,
  type StateDirLock,
} from './state-dir-lock.ts';

// The lock in one process (SQLite keeps its connections' locks apart within a process as the
// OS does between processes); between processes, and after a SIGKILL, in
// process/state-dir.integration.test.ts.

let dir: string;
const held: StateDirLock[] = [];

afterEach(() => {
  for (const lock of held.splice(0)) lock.release();
  rmSync(dir, { recursive: true, force: true });
});

async function lock(): Promise<StateDirLock> {
  const taken = await lockStateDir(dir);
  held.push(taken);
  return taken;
}

describe('the STATE_DIR lock', () => {
  it('is had by one holder at a time, who is named; released, it can be had again', async () => {
    dir = mkdtempSync(join(tmpdir(), 'state-lock-'));
    const first = await lock();
    expect(readFileSync(join(dir, PID_FILE), 'utf8')).toBe(`${process.pid}\n`);
    const refused = await lockStateDir(dir).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(StateDirInUse);
    expect((refused as StateDirInUse).holderPid).toBe(process.pid);
    expect((refused as Error).message).toContain(`STATE_DIR ${dir} is in use`);
    expect((refused as Error).message).toContain(`PID ${process.pid}`);

    first.release();
    await lock();
  });

  it('stays held when its holder drops it: a garbage collection does not let go', async () => {
    dir = mkdtempSync(join(tmpdir(), 'state-lock-'));
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // Taken, and nothing here keeps it: for the rest of this worker's life, as a process's is.
    await lockStateDir(dir);
    for (let i = 0; i < 3; i++) {
      gc();
      await new Promise((done) => setImmediate(done));
    }
    await expect(lockStateDir(dir)).rejects.toBeInstanceOf(StateDirInUse);
  });

  it('a note naming a process that is gone holds nothing', async () => {
    dir = mkdtempSync(join(tmpdir(), 'state-lock-'));
    // No process has this PID (above the kernel's limit on Linux, 2^22).
    writeFileSync(join(dir, PID_FILE), `${2 ** 22 + 1}\n`);
    await lock();
    expect(readFileSync(join(dir, PID_FILE), 'utf8')).toBe(`${process.pid}\n`);
  });

  it('a lock file that is not one cannot be held, and says so', async () => {
    dir = mkdtempSync(join(tmpdir(), 'state-lock-'));
    writeFileSync(join(dir, LOCK_FILE), 'not a database '.repeat(300));
    await expect(lockStateDir(dir)).rejects.toBeInstanceOf(StateDirUnlockable);
  });
});
