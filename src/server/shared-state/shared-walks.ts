import { randomUUID } from 'node:crypto';
import type { LeaseAnswer, WalkLease, WalkLeases } from '../whole-list/walk-leases.ts';
import { luaScript } from './lua-script.ts';
import type { RedisConnection } from './redis-connection.ts';

// Whole-list walks across replicas (whole-list/list-walk.ts): a client's running walks are
// counted for the whole deployment, and a list's readers together, so a second reader on any
// replica joins the first. Each walk's lease lapses unless renewed, so a replica that dies frees
// its places by itself. While Redis is unreachable each replica counts only its own walks.

export interface SharedWalkLeases extends WalkLeases {
  acquire(client: string, list: string): Promise<LeaseAnswer>;
  close(): void;
}

/** KEYS: the client's walks, the list's walks. ARGV: limit, walk, lease ms. */
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then
  local first = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, math.max(1, math.ceil((tonumber(first[2]) - now) / 1000))}
end
local joined = 0
if redis.call('ZCARD', KEYS[2]) > 0 then joined = 1 end
local lapses = now + tonumber(ARGV[3])
redis.call('ZADD', KEYS[1], lapses, ARGV[2])
redis.call('ZADD', KEYS[2], lapses, ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
redis.call('PEXPIRE', KEYS[2], ARGV[3])
return {1, joined}
`;

/** KEYS: the client's walks, the list's walks. ARGV: walk, lease ms. */
const RENEW = `
local t = redis.call('TIME')
local lapses = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000) + tonumber(ARGV[2])
redis.call('ZADD', KEYS[1], 'XX', lapses, ARGV[1])
redis.call('ZADD', KEYS[2], 'XX', lapses, ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return 1
`;

export function createWalkLeases(options: {
  connection: RedisConnection;
  keyPrefix: string;
  walksPerClient: number;
  /** How long a lease lasts unless renewed (renewed every third of it). */
  leaseMs?: number;
}): SharedWalkLeases {
  const { connection, keyPrefix, walksPerClient, leaseMs = 30_000 } = options;
  const { client: redis } = connection;
  const acquire = luaScript(redis, 'explorerWalkAcquire', 2, ACQUIRE);
  const renew = luaScript(redis, 'explorerWalkRenew', 2, RENEW);
  const keysOf = (client: string, list: string) => [
    `${keyPrefix}walks:client:${client}`,
    `${keyPrefix}walks:list:${list}`,
  ];
  /** Leases held by walks running here, renewed together. */
  const held = new Map<string, string[]>();
  const timer = setInterval(() => {
    if (!connection.up()) return;
    for (const [walk, keys] of held)
      renew(keys, [walk, leaseMs]).catch((error: unknown) => connection.reportFailure(error));
  }, leaseMs / 3);
  timer.unref();

  const local = (): { ok: true; lease: WalkLease } => ({
    ok: true,
    lease: { joined: false, release: () => {} },
  });

  return {
    async acquire(client, list) {
      if (!connection.up()) return local();
      const keys = keysOf(client, list);
      const walk = randomUUID();
      let answer: [number, number];
      try {
        answer = (await acquire(keys, [walksPerClient, walk, leaseMs])) as [number, number];
      } catch (error) {
        connection.reportFailure(error);
        return local();
      }
      const [granted, figure] = answer;
      if (granted === 0) return { ok: false, retryAfterSeconds: figure };
      held.set(walk, keys);
      let released = false;
      return {
        ok: true,
        lease: {
          joined: figure === 1,
          release() {
            if (released) return;
            released = true;
            held.delete(walk);
            const [clientKey, listKey] = keys as [string, string];
            if (!connection.up()) return; // it lapses by itself
            redis
              .multi()
              .zrem(clientKey, walk)
              .zrem(listKey, walk)
              .exec()
              .catch((error: unknown) => connection.reportFailure(error));
          },
        },
      };
    },
    close() {
      clearInterval(timer);
    },
  };
}
