import type { DatabaseSync } from 'node:sqlite';
import type { StateLogger } from '../disk/state-database.ts';
import { etagOf } from '../http/representation.ts';
import { decodeEntry, encodeEntry } from './entry-codec.ts';
import type { PageCacheEntry } from './page-entry.ts';
import { NO_SECOND_LEVEL, NOTHING_READ, type SecondLevel } from './second-level.ts';

// The page cache's second level for a process alone: the pages it fetched, on disk in STATE_DIR,
// so that after a restart readers meet warm pages at once instead of waiting for the upstream.
// Memory keeps the hot set; the disk keeps more, the least recently used going first. Reads are
// synchronous (node:sqlite), so the page source still decides without yielding; writes are
// batched after the answer has gone. A page read back is checked against its validator before
// it is served, and a store that fails is said once while memory and the upstream serve on.
// Each row is keyed by its upstream (disk/upstream-scope.ts): a store reads its own upstream's
// rows only, and the others' stay (switching back finds them warm), sharing the limit.

export interface DiskPages extends SecondLevel {
  stats(): { entries: number; bytes: number; failed: boolean };
  /** Writes what is pending, then closes the file. */
  close(): void;
}

/** A page's last use is written back at most this often (a read is not a write each time). */
const TOUCH_EVERY_MS = 60_000;
/** When full, the least recently used go until the store is this far below its limit. */
const EVICT_TO = 0.9;

/**
 * The page store's tables, in STATE_DIR's database (process/state-file.ts). Its size is kept by
 * triggers beside the pages, so that neither a write nor an eviction reads a row back.
 */
export const PAGES_SCHEMA = `
  CREATE TABLE IF NOT EXISTS pages (
    key TEXT PRIMARY KEY,
    entry BLOB NOT NULL,
    bytes INTEGER NOT NULL,
    expires_ms INTEGER NOT NULL,
    used_ms INTEGER NOT NULL
  );
  CREATE INDEX IF NOT EXISTS pages_by_use ON pages (used_ms);
  CREATE TABLE IF NOT EXISTS totals (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    bytes INTEGER NOT NULL,
    entries INTEGER NOT NULL
  );
  INSERT OR IGNORE INTO totals (id, bytes, entries)
    SELECT 1, coalesce(sum(bytes), 0), count(*) FROM pages;
  CREATE TRIGGER IF NOT EXISTS pages_added AFTER INSERT ON pages BEGIN
    UPDATE totals SET bytes = bytes + new.bytes, entries = entries + 1;
  END;
  CREATE TRIGGER IF NOT EXISTS pages_replaced AFTER UPDATE OF bytes ON pages BEGIN
    UPDATE totals SET bytes = bytes - old.bytes + new.bytes;
  END;
  CREATE TRIGGER IF NOT EXISTS pages_dropped AFTER DELETE ON pages BEGIN
    UPDATE totals SET bytes = bytes - old.bytes, entries = entries - 1;
  END;
`;

interface Row {
  entry: Uint8Array;
  expires_ms: number;
  used_ms: number;
}

/** The page store in `db` (at `path`, for the log), holding `scope`'s pages only. */
export function openDiskPages(
  db: DatabaseSync,
  path: string,
  options: { maxBytes: number; scope: string; logger: StateLogger; now?: () => number },
): DiskPages {
  const { maxBytes, scope, logger, now = Date.now } = options;
  /** Before every key this store reads or writes: its upstream's rows only. */
  const prefix = `${scope}:`;
  const get = db.prepare('SELECT entry, expires_ms, used_ms FROM pages WHERE key = ?');
  const put = db.prepare(
    `INSERT INTO pages (key, entry, bytes, expires_ms, used_ms) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (key) DO UPDATE SET entry = excluded.entry, bytes = excluded.bytes,
       expires_ms = excluded.expires_ms, used_ms = excluded.used_ms`,
  );
  const touch = db.prepare('UPDATE pages SET used_ms = ? WHERE key = ?');
  const drop = db.prepare('DELETE FROM pages WHERE key = ?');
  const dropExpired = db.prepare('DELETE FROM pages WHERE expires_ms <= ?');
  const leastUsed = db.prepare('SELECT key FROM pages ORDER BY used_ms LIMIT 256');
  const totals = db.prepare('SELECT bytes, entries FROM totals');
  const measured = () => totals.get() as { bytes: number; entries: number };

  let { bytes, entries } = measured();
  let failed = false;
  /** Entries stored and not yet written, by key. */
  const pending = new Map<string, { entry: PageCacheEntry; expires: number }>();
  let flushing: NodeJS.Immediate | undefined;

  /** Any failure stops the store for good: memory and the upstream serve on. */
  const fail = (error: unknown) => {
    if (failed) return;
    failed = true;
    pending.clear();
    logger.error({ err: error, path }, 'the page store stopped: pages are kept in memory only');
  };
  const run = <T>(work: () => T): T | undefined => {
    if (failed) return undefined;
    try {
      return work();
    } catch (error) {
      fail(error);
      return undefined;
    }
  };

  /** `key` is a row's whole key (an eviction's victim may be another upstream's). */
  const remove = (key: string) => {
    drop.run(key);
    ({ bytes, entries } = measured());
  };

  /** Back under the limit: the expired first, then the least recently used. */
  const evict = (at: number) => {
    if (bytes <= maxBytes) return;
    dropExpired.run(at);
    ({ bytes, entries } = measured());
    while (bytes > maxBytes * EVICT_TO) {
      const victims = leastUsed.all() as Array<{ key: string }>;
      if (victims.length === 0) break;
      for (const victim of victims) {
        drop.run(victim.key);
        ({ bytes, entries } = measured());
        if (bytes <= maxBytes * EVICT_TO) break;
      }
    }
  };

  const flush = () => {
    flushing = undefined;
    if (pending.size === 0) return;
    const batch = [...pending];
    pending.clear();
    run(() => {
      const at = now();
      db.exec('BEGIN');
      try {
        for (const [key, { entry, expires }] of batch) {
          // node:sqlite copies the bytes it is given, a view's own bytes only.
          const encoded = encodeEntry(entry);
          put.run(prefix + key, encoded, encoded.length, expires, at);
        }
        ({ bytes, entries } = measured());
        evict(at);
        db.exec('COMMIT');
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
    });
  };

  /** What the store holds for `key` and may serve: unexpired, and its bytes its own. */
  const lookUp = (key: string): PageCacheEntry | undefined => {
    const at = now();
    const waiting = pending.get(key);
    if (waiting !== undefined) return waiting.expires > at ? waiting.entry : undefined;
    const stored = prefix + key;
    return run(() => {
      const row = get.get(stored) as Row | undefined;
      if (row === undefined) return undefined;
      if (row.expires_ms <= at) {
        remove(stored);
        return undefined;
      }
      const entry =
        row.entry instanceof Uint8Array
          ? decodeEntry(Buffer.from(row.entry.buffer, row.entry.byteOffset, row.entry.length))
          : undefined;
      if (entry === undefined || (entry.kind === 'page' && etagOf(entry.body) !== entry.etag)) {
        logger.warn({ path, key }, 'a damaged page in the page store was dropped');
        remove(stored);
        return undefined;
      }
      if (at - row.used_ms >= TOUCH_EVERY_MS) touch.run(at, stored);
      return entry;
    });
  };

  // Every claim is this process's, and no one else's result is waited for: as with no store.
  return {
    ...NO_SECOND_LEVEL,
    read(key) {
      const entry = lookUp(key);
      return entry === undefined ? NOTHING_READ : { entry, fetching: false };
    },
    entry: lookUp,
    store(key, entry, ttlMs) {
      if (failed || maxBytes <= 0) return;
      pending.set(key, { entry, expires: now() + ttlMs });
      flushing ??= setImmediate(flush);
    },
    stats: () => ({ entries, bytes, failed }),
    close() {
      if (flushing !== undefined) clearImmediate(flushing);
      flush();
    },
  };
}
