import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../test-support/free-port.ts';
import { startTestRedis, type TestRedis } from '../../test-support/redis-server.ts';
import { startTcpProxy } from '../../test-support/tcp-proxy.ts';
import { createRedisConnection } from './redis-connection.ts';

// The start of the link: a replica listens once its first connection is made or has failed,
// never sooner (its first requests would be counted alone) and never later than one attempt.

let redis: TestRedis;
beforeAll(async () => {
  redis = await startTestRedis();
});
afterAll(() => redis.stop());

const quiet = { info() {}, warn() {} };
const connect = (url: string, commandTimeoutMs = 250) =>
  createRedisConnection({ url, commandTimeoutMs, logger: quiet });

describe('the link to Redis, at start', () => {
  it('settles up once the first connection answers', async () => {
    const connection = connect(redis.url);
    try {
      expect(connection.state()).toBe('connecting');
      expect(await connection.settled()).toBe('up');
      expect(connection.up()).toBe(true);
    } finally {
      await connection.close();
    }
  });

  it('settles down at once when nothing listens', async () => {
    // A long attempt's deadline (8 s), so that "at once" is told from waiting it out whatever
    // the machine's load.
    const connection = connect(`redis://127.0.0.1:${await freePort()}`, 2000);
    try {
      const started = performance.now();
      expect(await connection.settled()).toBe('down');
      expect(performance.now() - started).toBeLessThan(4000);
    } finally {
      await connection.close();
    }
  });

  it('waits no longer than one attempt for a Redis that does not answer, and is up when it does', async () => {
    const proxy = await startTcpProxy({ host: '127.0.0.1', port: redis.port });
    proxy.cut();
    const connection = connect(`redis://127.0.0.1:${proxy.port}`);
    try {
      const started = performance.now();
      const state = await connection.settled();
      const waited = performance.now() - started;
      // Its handshake is a command like any other: down when that misses its deadline, and in
      // any case by the end of the attempt's (four command deadlines, at least a second).
      expect(state).toBe('down');
      expect(waited).toBeGreaterThanOrEqual(240);
      expect(waited).toBeLessThan(5000);
      proxy.heal();
      for (let tries = 0; tries < 100 && !connection.up(); tries++)
        await new Promise((done) => setTimeout(done, 50));
      expect(connection.up()).toBe(true);
    } finally {
      await connection.close();
      await proxy.close();
    }
  });
});
