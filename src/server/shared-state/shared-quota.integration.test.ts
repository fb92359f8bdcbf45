import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRedis, type TestRedis } from '../../test-support/redis-server.ts';
import { createRedisConnection, type RedisConnection } from './redis-connection.ts';
import { createSharedQuota } from './shared-quota.ts';

// The shared quota against a real redis-server: guards in one process, each with a connection
// of its own, stand for replicas racing for the same budget.

let redis: TestRedis;
let prefixes = 0;
const connections: RedisConnection[] = [];
const quiet = { info: () => {}, warn: () => {} };

beforeAll(async () => {
  redis = await startTestRedis();
});

afterAll(async () => {
  await Promise.all(connections.map((c) => c.close()));
  await redis.stop();
});

/**
 * By default a deadline that a loaded machine meets: where a test is not about a slow Redis, no
 * command falls back for want of a CPU.
 */
async function connect(commandTimeoutMs = 2000): Promise<RedisConnection> {
  const connection = createRedisConnection({
    url: redis.url,
    commandTimeoutMs,
    logger: quiet,
    heartbeatMs: 100,
  });
  connections.push(connection);
  for (let i = 0; i < 500 && !connection.up(); i++) await sleep(20);
  expect(connection.up()).toBe(true);
  return connection;
}

async function replicas(count: number, budgetPerHour: number, commandTimeoutMs?: number) {
  const keyPrefix = `quota${++prefixes}:`;
  return Promise.all(
    Array.from({ length: count }, async () =>
      createSharedQuota({
        connection: await connect(commandTimeoutMs),
        budgetPerHour,
        replicas: count,
        keyPrefix,
        refreshMs: 100,
      }),
    ),
  );
}

describe('the shared quota', () => {
  it('holds a walk’s reservation for every replica, and takes back what it did not spend', async () => {
    const guards = await replicas(2, 10);
    const [a, b] = [guards[0]!, guards[1]!];
    const reserved = await a.reserve(6);
    if (!reserved.ok) throw new Error('expected a reservation');
    // The other replica sees the six as spent: a second walk of six does not fit, four calls do.
    expect(await b.reserve(6)).toMatchObject({ ok: false, reason: 'quota_exhausted' });
    const calls = await Promise.all([1, 2, 3, 4, 5].map(() => b.tryAcquire()));
    expect(calls.map((d) => d.ok)).toEqual([true, true, true, true, false]);
    // The walk spends two of its six, and gives the other four back when it ends.
    expect([reserved.reservation.take(), reserved.reservation.take()]).toEqual([true, true]);
    reserved.reservation.release();
    for (let i = 0; i < 100; i++) {
      if ((await b.tryAcquire()).ok) break;
      await sleep(10);
    }
    const more = await Promise.all([1, 2, 3].map(() => b.tryAcquire()));
    expect(more.map((d) => d.ok)).toEqual([true, true, true]);
    expect((await b.tryAcquire()).ok).toBe(false);
  });

  it('never grants more than the budget, however replicas interleave', async () => {
    const guards = await replicas(4, 250, 5000);
    const decisions = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => guards[i % 4]!.tryAcquire()),
    );
    expect(decisions.filter((d) => d.ok)).toHaveLength(250);
    const refused = decisions.find((d) => !d.ok);
    expect(refused).toMatchObject({ reason: 'quota_exhausted' });
    // The first calls leave the window in about an hour.
    expect(refused?.ok === false && refused.retryAfterSeconds).toBeGreaterThan(3590);
    expect(await guards[0]!.secondsUntilRoomFor(1)).toBeGreaterThan(3590);
    for (const guard of guards) guard.close();
  });

  it('nor when commands miss their deadline (their scripts may have run all the same)', async () => {
    const guards = await replicas(4, 250, 3);
    const decisions = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => guards[i % 4]!.tryAcquire()),
    );
    const granted = decisions.filter((d) => d.ok).length;
    // A replica whose commands miss the deadline counts Redis out and spends from its own
    // share. Redis's grants never pass the budget however late their replies come, and a
    // replica's own grants never pass its share; what the two can add up to while some
    // replicas still reach Redis is the limit the README states (a partial outage).
    const local = guards.map((guard) => guard.fallbackStats().granted);
    const byRedis = granted - local.reduce((a, b) => a + b, 0);
    expect(byRedis).toBeLessThanOrEqual(250);
    for (const count of local) expect(count).toBeLessThanOrEqual(Math.floor(250 / 4));
    expect(granted).toBeGreaterThan(0);
    for (const guard of guards) guard.close();
  });

  it('an upstream 429 seen by one replica pauses them all', async () => {
    const [a, b] = await replicas(2, 1000);
    a!.pauseFor(3);
    await sleep(50);
    expect(await b!.tryAcquire()).toEqual({
      ok: false,
      reason: 'upstream_rate_limited',
      retryAfterSeconds: 3,
    });
    a!.close();
    b!.close();
  });

  it('with Redis frozen, answers within the command deadline from the fallback share', async () => {
    // Long beside what a loaded machine adds to a call, so that its time tells how many
    // deadlines it waited out.
    const deadlineMs = 1000;
    const guards = await replicas(3, 300, deadlineMs);
    for (let i = 0; i < 30; i++) expect((await guards[i % 3]!.tryAcquire()).ok).toBe(true);
    await sleep(150); // every replica has read the deployment's use since
    redis.freeze();
    try {
      const started = performance.now();
      const first = await guards[0]!.tryAcquire();
      // One deadline, then its own share decides; a second wait on Redis would be past this.
      expect(performance.now() - started).toBeLessThan(2 * deadlineMs);
      expect(first.ok).toBe(true);
      // Each now spends its share of what was left: (300 - 30) / 3, less its own last calls,
      // once its heartbeat (a deadline's wait) has taken Redis out of the way.
      await sleep(3 * deadlineMs);
      let granted = 1;
      for (const guard of guards)
        for (let i = 0; i < 200; i++) if ((await guard.tryAcquire()).ok) granted++;
      expect(granted).toBeLessThanOrEqual(300 - 30);
      expect(granted).toBeGreaterThan(200);
    } finally {
      redis.thaw();
    }
    for (const guard of guards) guard.close();
  });
});
