import { backoffMs } from '../../shared/backoff.ts';
import { Redis } from 'ioredis';
import type { Logger } from 'pino';

// The replica's link to Redis, where replicas share their quota, pages, merging, allowances and
// failure state. Redis is a help, never a dependency: every part that uses it can go on without
// it, so this module says, cheaply and at once, whether to try. It keeps two connections
// (commands, and a subscriber), bounds every command by a deadline, refuses commands while
// disconnected rather than queueing them, and counts a Redis too slow to answer its heartbeat as
// down, so requests stop paying the deadline one by one. ioredis reconnects by itself; each
// change of state is logged once.

export type RedisState = 'connecting' | 'up' | 'down';

export interface RedisConnectionOptions {
  url: string;
  /** The longest any one command may take. */
  commandTimeoutMs: number;
  logger: Pick<Logger, 'info' | 'warn'>;
  /** How often the link is checked. */
  heartbeatMs?: number;
}

export interface RedisConnection {
  /** For commands; rejects at once while the link is down. */
  readonly client: Redis;
  /** A second connection in subscriber mode, made on first use. */
  subscriber(): Redis;
  state(): RedisState;
  /** True when sharing is on: connected and answering within the deadline. */
  up(): boolean;
  /** Why not, when down (for /readyz and the log). */
  reason(): string | undefined;
  /**
   * Once the first connection is made or has failed, or one attempt's deadline has passed:
   * what the state is then. A replica waits for it before it listens, so that its first requests are counted
   * with the others' rather than from its lease.
   */
  settled(): Promise<RedisState>;
  /** Told of every change to up or down (e.g. the quota replays what it spent meanwhile). */
  onChange(listener: (state: RedisState) => void): void;
  /** A command failed (timeout, refused): checks the link now rather than at the next beat. */
  reportFailure(error: unknown): void;
  stats(): { state: RedisState; transitions: number; failures: number };
  close(): Promise<void>;
}

/** Reconnect soon at first, then every two seconds at most, for as long as it takes. */
const retryStrategy = (times: number) => backoffMs(times + 1, { firstMs: 50, maxMs: 2000 });

export function createRedisConnection(options: RedisConnectionOptions): RedisConnection {
  const { url, commandTimeoutMs, logger, heartbeatMs = 1000 } = options;
  const connectTimeout = Math.max(1000, commandTimeoutMs * 4);
  const common = {
    connectTimeout,
    retryStrategy,
    // The replica must never hang on Redis: commands fail at once while disconnected...
    enableOfflineQueue: false,
    // ...and are not retried on a new connection (the caller has gone on without them).
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
  };
  const client = new Redis(url, { ...common, commandTimeout: commandTimeoutMs });
  let sub: Redis | null = null;
  let state: RedisState = 'connecting';
  let reason: string | undefined = 'connecting';
  let transitions = 0;
  let failures = 0;
  let closed = false;
  const listeners: Array<(state: RedisState) => void> = [];

  const moveTo = (next: RedisState, why?: string) => {
    if (closed) return;
    reason = next === 'up' ? undefined : why;
    if (next === state) return;
    const previous = state;
    state = next;
    transitions++;
    if (next === 'up') {
      logger.info(
        { redis: 'up', was: previous },
        previous === 'down' ? 'redis reachable again: sharing resumed' : 'redis connected: sharing',
      );
    } else {
      logger.warn(
        { redis: next, reason: why },
        'redis unavailable: serving from this replica alone (its memory, its lease of the quota)',
      );
    }
    for (const listener of listeners) {
      try {
        listener(next);
      } catch {
        // One part's trouble with a transition must not keep the others from hearing of it.
      }
    }
  };

  let beating = false;
  const beat = async () => {
    if (beating || closed) return;
    beating = true;
    try {
      if (client.status !== 'ready') {
        if (state !== 'connecting') moveTo('down', 'disconnected');
        return;
      }
      await client.ping();
      moveTo('up');
    } catch (error) {
      failures++;
      moveTo('down', describe(error));
    } finally {
      beating = false;
    }
  };

  client.on('ready', () => void beat());
  client.on('close', () => moveTo('down', 'disconnected'));
  // ioredis reports connection errors here; the heartbeat and 'close' say what they mean.
  client.on('error', () => {});
  const timer = setInterval(() => void beat(), heartbeatMs);
  timer.unref();

  return {
    client,
    subscriber() {
      if (sub === null) {
        // Subscriptions are re-made by ioredis on every reconnection.
        sub = new Redis(url, { ...common, enableOfflineQueue: true });
        sub.on('error', () => {});
      }
      return sub;
    },
    state: () => state,
    up: () => state === 'up',
    reason: () => reason,
    settled() {
      if (state !== 'connecting') return Promise.resolve(state);
      return new Promise((done) => {
        const timeout = setTimeout(() => done(state), connectTimeout);
        listeners.push((next) => {
          clearTimeout(timeout);
          done(next);
        });
      });
    },
    onChange(listener) {
      listeners.push(listener);
    },
    reportFailure(error) {
      failures++;
      if (state === 'up') {
        // A slow answer or a dropped connection: check now, so the next requests skip Redis.
        if (client.status !== 'ready') moveTo('down', describe(error));
        else void beat();
      }
    },
    stats: () => ({ state, transitions, failures }),
    async close() {
      closed = true;
      clearInterval(timer);
      client.disconnect();
      sub?.disconnect();
    },
  };
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (/timed out/i.test(message)) return 'slow (no answer within the command deadline)';
  if (/writeable|closed|connect/i.test(message)) return 'disconnected';
  return message.slice(0, 200);
}
