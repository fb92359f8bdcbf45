import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { etagOf } from '../http/representation.ts';
import { openStateFile, STATE_FILE } from '../process/state-file.ts';
import { openDiskPages, type DiskPages } from './disk-pages.ts';
import type { StoredPage } from './page-entry.ts';

let dir: string;
const opened: Array<{ store: DiskPages; db: DatabaseSync }> = [];
const logged: string[] = [];
const logger = {
  warn: (_: object, msg?: string) => logged.push(`warn ${msg}`),
  error: (_: object, msg?: string) => logged.push(`error ${msg}`),
};

afterEach(() => {
  for (const { store, db } of opened.splice(0)) {
    store.close();
    db.close();
  }
  rmSync(dir, { recursive: true, force: true });
  logged.length = 0;
});

/** Two upstreams' keys (disk/upstream-scope.ts): the stores below are the first's unless told. */
const UPSTREAM_A = 'a'.repeat(32);
const UPSTREAM_B = 'b'.repeat(32);

function open(maxBytes = 1 << 20, now = () => 1_000_000, scope = UPSTREAM_A) {
  dir ??= mkdtempSync(join(tmpdir(), 'disk-pages-'));
  const db = openStateFile(dir, logger, now);
  if (db === null) throw new Error('expected a database');
  const store = openDiskPages(db, join(dir, STATE_FILE), { maxBytes, scope, logger, now });
  opened.push({ store, db });
  return store;
}

/** Closes the store opened last, and its database, as a stopping process does. */
function closeLast() {
  const { store, db } = opened.pop()!;
  store.close();
  db.close();
}

function page(text: string, freshUntil = 2_000_000): StoredPage {
  const body = Buffer.from(JSON.stringify({ items: [text], continuation: null }));
  return {
    kind: 'page',
    body,
    etag: etagOf(body),
    freshUntil,
    staleUntil: freshUntil + 1000,
    encoded: {},
    encodedBytes: 0,
  };
}

describe('pages on disk', () => {
  it('keeps what was stored across a reopen, byte for byte, with its freshness', async () => {
    dir = mkdtempSync(join(tmpdir(), 'disk-pages-'));
    const first = open();
    first.store('playlist PL1 ', page('one'), 60_000);
    // Before the write: served from what is pending.
    expect(first.entry('playlist PL1 ')).toMatchObject({ kind: 'page', freshUntil: 2_000_000 });
    await nextTurn();
    closeLast();
    const again = open();
    const read = again.read('playlist PL1 ') as { entry?: StoredPage };
    expect(read.entry?.body.toString()).toBe(page('one').body.toString());
    expect(read.entry?.etag).toBe(page('one').etag);
    expect(again.stats()).toMatchObject({ entries: 1 });
  });

  it('never serves a damaged page: it is dropped and said so', async () => {
    dir = mkdtempSync(join(tmpdir(), 'disk-pages-'));
    const store = open();
    store.store('k', page('good'), 60_000);
    await nextTurn();
    // Another hand flips bytes inside the stored body.
    const raw = new DatabaseSync(join(dir, STATE_FILE));
    raw.exec(`UPDATE pages SET entry = CAST(replace(entry, 'good', 'evil') AS BLOB)`);
    raw.close();
    expect(store.entry('k')).toBeUndefined();
    expect(logged).toEqual(['warn a damaged page in the page store was dropped']);
    expect(store.stats().entries).toBe(0);
  });

  it("never serves another upstream's page; switching back finds its own again", async () => {
    dir = mkdtempSync(join(tmpdir(), 'disk-pages-'));
    const first = open();
    first.store('playlist PL1 ', page('from A'), 60_000);
    await nextTurn();
    closeLast();

    const other = open(undefined, undefined, UPSTREAM_B);
    expect(other.entry('playlist PL1 ')).toBeUndefined();
    other.store('playlist PL1 ', page('from B'), 60_000);
    await nextTurn();
    closeLast();

    const back = open();
    const read = back.read('playlist PL1 ') as { entry?: StoredPage };
    expect(read.entry?.body.toString()).toBe(page('from A').body.toString());
    // Both kept, in one store and its one limit.
    expect(back.stats().entries).toBe(2);
  });

  it('forgets what has expired, and past its limit drops the least recently used', async () => {
    dir = mkdtempSync(join(tmpdir(), 'disk-pages-'));
    let now = 1_000_000;
    const store = open(4_000, () => now);
    store.store('expiring', page('x'), 10);
    await nextTurn();
    now += 20;
    expect(store.entry('expiring')).toBeUndefined();
    for (let i = 0; i < 60; i++) {
      store.store(`page ${i}`, page(`item ${i}`.repeat(4)), 60_000);
      now += 1;
      await nextTurn();
    }
    const { bytes, entries } = store.stats();
    expect(bytes).toBeLessThanOrEqual(4_000);
    expect(entries).toBeLessThan(60);
    expect(store.entry('page 59')).toBeDefined();
    expect(store.entry('page 0')).toBeUndefined();
  });
});
