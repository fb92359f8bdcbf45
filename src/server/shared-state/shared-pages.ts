import type { Redis } from 'ioredis';
import { decodeEntry, encodeEntry } from '../pages/entry-codec.ts';
import { NOTHING_READ, type SecondLevel, type SecondLevelRead } from '../pages/second-level.ts';
import { luaScript } from './lua-script.ts';
import type { RedisConnection } from './redis-connection.ts';

// The page cache's second level for replicas, through Redis: pages any replica fetched, kept
// until no longer servable (freshness travels with them); who is fetching a page, by a short
// claim (SET NX PX) others wait on, woken by a message when the page is stored or looking every
// so often in case one is missed, so a replica that dies holding a claim delays the others by
// its lifetime at most; and pages held back after a failure (failure-backoff.ts), so a page that
// just failed on one replica costs the others no quota. One script reads all three at once.
// Nothing here throws or waits past the command deadline: while Redis is unreachable each answer
// is "nothing shared", and the replica goes on from its own memory.

export interface SharedPages extends SecondLevel {
  stats(): { secondLevelHits: number; merged: number };
  close(): void;
}

const READ = `
local page = redis.call('GET', KEYS[1])
local fetching = redis.call('EXISTS', KEYS[2])
local held = redis.call('GET', KEYS[3])
return {page or '', fetching, held or ''}
`;

const STORE = `
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('DEL', KEYS[2], KEYS[3])
redis.call('PUBLISH', ARGV[3], ARGV[4])
return 1
`;

const RELEASE = `
redis.call('DEL', KEYS[2])
if ARGV[1] ~= '' then redis.call('SET', KEYS[3], ARGV[1], 'PX', ARGV[2]) end
redis.call('PUBLISH', ARGV[3], ARGV[4])
return 1
`;

export interface SharedPagesOptions {
  connection: RedisConnection;
  keyPrefix: string;
  /** How long a claim lasts: longer than one upstream call may take, retries included. */
  claimMs: number;
  /** How often a waiter looks, in case a message went missing. */
  pollMs?: number;
  now?: () => number;
}

export function createSharedPages(options: SharedPagesOptions): SharedPages {
  const { connection, keyPrefix, claimMs, pollMs = 100, now = Date.now } = options;
  const { client } = connection;
  const channel = `${keyPrefix}pages`;
  const keysOf = (key: string) => [
    `${keyPrefix}page:${key}`,
    `${keyPrefix}fetching:${key}`,
    `${keyPrefix}held:${key}`,
  ];
  const read = luaScript(client, 'explorerPagesRead', 3, READ, { buffers: true });
  const store = luaScript(client, 'explorerPagesStore', 3, STORE);
  const release = luaScript(client, 'explorerPagesRelease', 3, RELEASE);
  const counts = { secondLevelHits: 0, merged: 0 };

  /** Waiters on this replica, woken when a page's result is announced. */
  const waiters = new Map<string, Set<() => void>>();
  let subscriber: Redis | null = null;
  const listen = () => {
    subscriber = connection.subscriber();
    subscriber.on('message', (from: string, key: string) => {
      if (from !== channel) return;
      const wake = waiters.get(key);
      if (wake === undefined) return;
      waiters.delete(key);
      for (const w of wake) w();
    });
    subscriber.subscribe(channel).catch(() => {
      // Re-made by ioredis on reconnection; meanwhile waiters look every pollMs.
    });
  };
  listen();

  /** Resolves when `key`'s result is announced or after `ms`, whichever comes first. */
  const announced = (key: string, ms: number) =>
    new Promise<void>((resolve) => {
      let set = waiters.get(key);
      if (set === undefined) waiters.set(key, (set = new Set()));
      const done = () => {
        clearTimeout(timer);
        set.delete(done);
        if (set.size === 0 && waiters.get(key) === set) waiters.delete(key);
        resolve();
      };
      const timer = setTimeout(done, ms);
      set.add(done);
    });

  const failed = (error: unknown) => connection.reportFailure(error);

  const readOnce = async (key: string): Promise<SecondLevelRead> => {
    if (!connection.up()) return NOTHING_READ;
    try {
      const [page, fetching, held] = (await read(keysOf(key), [])) as [Buffer, number, Buffer];
      const result: SecondLevelRead = { fetching: fetching === 1 };
      if (page.length > 0) result.entry = decodeEntry(page);
      if (held.length > 0) {
        const hold = JSON.parse(held.toString('utf8')) as NonNullable<SecondLevelRead['hold']>;
        if (hold.untilMs > now()) result.hold = hold;
      }
      return result;
    } catch (error) {
      failed(error);
      return NOTHING_READ;
    }
  };

  /** Reads merged in this replica: one round trip per key at a time. */
  const reads = new Map<string, Promise<SecondLevelRead>>();
  const doRead = (key: string) => {
    let reading = reads.get(key);
    if (reading === undefined) {
      reading = readOnce(key).finally(() => reads.delete(key));
      reads.set(key, reading);
    }
    return reading;
  };

  return {
    read: doRead,
    async entry(key) {
      if (!connection.up()) return undefined;
      try {
        const page = await client.getBuffer(`${keyPrefix}page:${key}`);
        return page === null ? undefined : decodeEntry(page);
      } catch (error) {
        failed(error);
        return undefined;
      }
    },
    async claim(key) {
      if (!connection.up()) return true;
      try {
        const [, fetchingKey] = keysOf(key) as [string, string, string];
        return (await client.set(fetchingKey, '1', 'PX', claimMs, 'NX')) === 'OK';
      } catch (error) {
        failed(error);
        return true;
      }
    },
    async waitFor(key, timeoutMs) {
      const deadline = now() + timeoutMs;
      let seen = await readOnce(key);
      while (seen.entry === undefined && seen.hold === undefined && seen.fetching) {
        const left = deadline - now();
        if (left <= 0) break;
        await announced(key, Math.min(pollMs, left));
        seen = await readOnce(key);
      }
      return seen;
    },
    store(key, entry, ttlMs) {
      if (!connection.up() || ttlMs <= 0) return;
      store(keysOf(key), [encodeEntry(entry), Math.ceil(ttlMs), channel, key]).catch(failed);
    },
    release(key, hold) {
      if (!connection.up()) return;
      const ttl = hold === undefined ? 0 : Math.ceil(hold.untilMs - now());
      const value = hold === undefined || ttl <= 0 ? '' : JSON.stringify(hold);
      release(keysOf(key), [value, Math.max(1, ttl), channel, key]).catch(failed);
    },
    stats: () => ({ ...counts }),
    countHit() {
      counts.secondLevelHits++;
    },
    countMerged() {
      counts.merged++;
    },
    close() {
      for (const set of waiters.values()) for (const w of set) w();
      waiters.clear();
      subscriber?.unsubscribe(channel).catch(() => {});
    },
  };
}
