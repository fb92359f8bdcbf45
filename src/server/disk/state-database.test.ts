import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it } from 'vitest';
import { openStateDatabase } from './state-database.ts';

// What is moved aside and what is not: only a file whose bytes are wrong. A file another
// connection holds is live, and must be left exactly where it is.

let dir: string;
const logged: string[] = [];
const logger = {
  warn: (_: object, msg?: string) => logged.push(`warn ${msg}`),
  error: (_: object, msg?: string) => logged.push(`error ${msg}`),
};
const what = { name: 'the test file', without: 'kept in memory only' };
const SCHEMA = 'CREATE TABLE IF NOT EXISTS t (v INTEGER);';

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  logged.length = 0;
});

const asides = () => readdirSync(dir).filter((name) => name.includes('.broken-'));

describe('opening a state file', () => {
  it('a file another connection has locked is left in place, not taken for a broken one', () => {
    dir = mkdtempSync(join(tmpdir(), 'state-database-'));
    const path = join(dir, 'state.sqlite');
    // A live database in the middle of a write, in the rollback journal mode that an open
    // must switch to WAL: the switch needs a lock the holder has.
    const holder = new DatabaseSync(path);
    holder.exec(`${SCHEMA} INSERT INTO t VALUES (7);`);
    holder.exec('BEGIN EXCLUSIVE');
    try {
      expect(openStateDatabase(path, SCHEMA, what, logger)).toBeNull();
    } finally {
      holder.exec('COMMIT');
    }
    expect(asides()).toEqual([]);
    expect(logged).toEqual([
      'error the test file cannot be used (left in place): kept in memory only',
    ]);
    // And it is still the same database, with what it held.
    const db = openStateDatabase(path, SCHEMA, what, logger);
    expect(db?.prepare('SELECT v FROM t').get()).toEqual({ v: 7 });
    db?.close();
    holder.close();
  });

  it('a file that is not a database is moved aside and a fresh one made', () => {
    dir = mkdtempSync(join(tmpdir(), 'state-database-'));
    const path = join(dir, 'state.sqlite');
    writeFileSync(path, 'not a database '.repeat(300));
    const db = openStateDatabase(path, SCHEMA, what, logger, () => 42);
    expect(db).not.toBeNull();
    db?.close();
    expect(asides()).toEqual(['state.sqlite.broken-42']);
    expect(existsSync(path)).toBe(true);
    expect(logged).toEqual(['error the test file cannot be used: kept in memory only']);
  });
});
