import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestRedis, type TestRedis } from '../../test-support/redis-server.ts';
import { startTcpProxy, type TcpProxy } from '../../test-support/tcp-proxy.ts';
import { createRedisConnection, type RedisConnection } from './redis-connection.ts';
import { createSharedQuota, type SharedQuotaGuard } from './shared-quota.ts';
import { STRESS_RUNS } from '../../test-support/stress.ts';

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
async function connect(commandTimeoutMs = 2000, url = redis.url): Promise<RedisConnection> {
  const connection = createRedisConnection({
    url,
    commandTimeoutMs,
    logger: quiet,
    heartbeatMs: 100,
  });
  connections.push(connection);
  for (let i = 0; i < 500 && !connection.up(); i++) await sleep(20);
  expect(connection.up()).toBe(true);
  return connection;
}

interface ReplicaOptions {
  commandTimeoutMs?: number;
  /** The part of the hour the leases hold back (none unless said). */
  outageShare?: number;
  /** Where each replica reaches Redis (by default directly). */
  urls?: string[];
  /** The window in seconds (an hour unless said). */
  windowSeconds?: number;
  readerReserve?: number;
}

async function replicas(count: number, budgetPerHour: number, options: ReplicaOptions = {}) {
  const keyPrefix = `quota${++prefixes}:`;
  const guards = await Promise.all(
    Array.from({ length: count }, async (_, i) =>
      createSharedQuota({
        connection: await connect(options.commandTimeoutMs, options.urls?.[i]),
        budgetPerHour,
        replicas: count,
        outageShare: options.outageShare ?? 0,
        keyPrefix,
        refreshMs: 100,
        ...(options.windowSeconds === undefined ? {} : { windowSeconds: options.windowSeconds }),
        ...(options.readerReserve === undefined ? {} : { readerReserve: options.readerReserve }),
      }),
    ),
  );
  // Each holds its lease before the test begins.
  await Promise.all(guards.map((guard) => guard.renewLease()));
  return guards;
}

/** Asks `guard` for `count` permits, `atOnce` at a time; the number granted. */
async function spend(guard: SharedQuotaGuard, count: number, atOnce = 4): Promise<number> {
  let granted = 0;
  let asked = 0;
  await Promise.all(
    Array.from({ length: atOnce }, async () => {
      while (asked < count) {
        asked++;
        if ((await guard.tryAcquire()).ok) granted++;
      }
    }),
  );
  return granted;
}

/** Asks `guard` for permits, one after another, for `ms`; the number granted. */
async function spendFor(guard: SharedQuotaGuard, ms: number): Promise<number> {
  let granted = 0;
  for (const end = performance.now() + ms; performance.now() < end;) {
    if ((await guard.tryAcquire()).ok) granted++;
    else await sleep(5);
  }
  return granted;
}

describe('the shared quota', () => {
  it('slides a window of seconds on the server’s clock: spent calls come back when it has passed', async () => {
    const [a, b] = (await replicas(2, 4, { windowSeconds: 2 })) as [
      SharedQuotaGuard,
      SharedQuotaGuard,
    ];
    expect(await spend(a, 3, 1)).toBe(3);
    expect(await b.tryAcquire()).toEqual({ ok: true });
    const refused = await b.tryAcquire();
    // Refused for at most the window, not an hour.
    expect(refused).toMatchObject({ ok: false, reason: 'quota_exhausted' });
    expect(refused.ok === false && refused.retryAfterSeconds).toBeLessThanOrEqual(2);
    expect(await a.secondsUntilRoomFor(1)).toBeLessThanOrEqual(2);
    expect(a.stats()).toMatchObject({ budget: 4, windowSeconds: 2 });
    // The window's calls come back once it has slid past them.
    await vi.waitFor(async () => expect(await a.secondsUntilRoomFor(4)).toBe(0), {
      timeout: 5_000,
      interval: 50,
    });
    expect(await spend(b, 5, 1)).toBe(4);
  });

  it('keeps the readers’ reserve from jobs on every replica; readers may still spend it', async () => {
    const [a, b] = (await replicas(2, 10, { windowSeconds: 2, readerReserve: 0.2 })) as [
      SharedQuotaGuard,
      SharedQuotaGuard,
    ];
    // Jobs may count up to 8 of the 10.
    expect(await a.jobRoom()).toBe(8);
    const job = await a.reserveForJob(6);
    if (!job.ok) throw new Error('expected a reservation');
    expect(await b.jobRoom()).toBe(2);
    expect(await b.reserveForJob(3)).toMatchObject({ ok: false, reason: 'quota_exhausted' });
    expect(await b.secondsUntilJobRoom(3)).toBeGreaterThan(0);
    expect(await b.secondsUntilJobRoom(3)).toBeLessThanOrEqual(2);
    // More than the jobs' part never fits: the answer is the whole window.
    expect(await b.secondsUntilJobRoom(9)).toBe(2);
    expect((await b.reserveForJob(2)).ok).toBe(true);
    expect(await a.jobRoom()).toBe(0);
    // Readers are not held to the reserve: the last two of the ten are theirs.
    expect(await spend(b, 3, 1)).toBe(2);
    expect(await a.jobRoom()).toBe(0);
    await vi.waitFor(async () => expect(await a.jobRoom()).toBe(8), {
      timeout: 5_000,
      interval: 50,
    });
    expect(await b.secondsUntilJobRoom(8)).toBe(0);
  });

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
    const guards = await replicas(4, 250, { commandTimeoutMs: 5000 });
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
    const guards = await replicas(4, 250, { commandTimeoutMs: 3, outageShare: 0.2 });
    const decisions = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => guards[i % 4]!.tryAcquire()),
    );
    const granted = decisions.filter((d) => d.ok).length;
    // A replica whose commands miss the deadline spends from its lease, which the window already
    // counts: whatever the mix of late replies and leases, never more than the budget.
    expect(granted).toBeLessThanOrEqual(250);
    for (const guard of guards) expect(guard.fallbackStats().granted).toBeLessThanOrEqual(12);
    expect(granted).toBeGreaterThan(0);
    for (const guard of guards) guard.close();
  });

  it('one replica cut off under load: it spends only its lease, and the deployment never more than the budget', async () => {
    const budget = 120;
    for (let run = 0; run < STRESS_RUNS; run++) {
      const proxy: TcpProxy = await startTcpProxy({ host: '127.0.0.1', port: redis.port });
      try {
        // A reaches Redis through the proxy; lease: 120 × 0.25 / 3 = 10 calls each.
        const [a, b, c] = (await replicas(3, budget, {
          commandTimeoutMs: 200,
          outageShare: 0.25,
          urls: [`redis://127.0.0.1:${proxy.port}`, redis.url, redis.url],
        })) as [SharedQuotaGuard, SharedQuotaGuard, SharedQuotaGuard];
        expect(a.fallbackStats().leaseLeft).toBe(10);
        // Every replica spends while A is cut off at a moment that differs from run to run,
        // with its calls in flight; A answers from its lease, B and C until the window is full.
        const before = await Promise.all([spend(a, 10), spend(b, 10), spend(c, 10)]);
        const cutAfterMs = (run * 7) % 40;
        const during = Promise.all([spendFor(a, 600), spendFor(b, 600), spendFor(c, 600)]);
        await sleep(cutAfterMs);
        proxy.cut();
        const [byA, byB, byC] = await during;
        // A saw the cut (its commands waited out the deadline, then its heartbeat).
        expect(a.fallbackStats().granted).toBeGreaterThan(0);
        expect(a.fallbackStats().granted).toBeLessThanOrEqual(10);
        const more = await spend(a, 20, 1); // past its lease: refused
        proxy.heal();
        for (let i = 0; i < 500 && !(await a.renewLease()); i++) await sleep(10);
        // Back with Redis: the window is full, A gets nothing more, nor the others.
        const after = await Promise.all([spend(a, 20), spend(b, 20), spend(c, 20)]);
        const total = [...before, byA, byB, byC, more, ...after].reduce((x, y) => x + y, 0);
        expect(total, `run ${run}, cut after ${cutAfterMs} ms`).toBeLessThanOrEqual(budget);
        // And not much less: B's and C's leases are held back, A's lease was spent.
        expect(total).toBeGreaterThanOrEqual(budget - 20 - 10);
        for (const guard of [a, b, c]) guard.close();
      } finally {
        await proxy.close();
      }
    }
  }, 120_000);

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

  it('with Redis frozen, answers within the command deadline from each replica’s lease', async () => {
    // Long beside what a loaded machine adds to a call, so that its time tells how many
    // deadlines it waited out.
    const deadlineMs = 1000;
    // Leases of 300 × 0.3 / 3 = 30 calls each.
    const guards = await replicas(3, 300, { commandTimeoutMs: deadlineMs, outageShare: 0.3 });
    for (let i = 0; i < 30; i++) expect((await guards[i % 3]!.tryAcquire()).ok).toBe(true);
    await sleep(150); // every replica has read the deployment's use since
    redis.freeze();
    try {
      const started = performance.now();
      const first = await guards[0]!.tryAcquire();
      // One deadline, then its lease decides; a second wait on Redis would be past this.
      expect(performance.now() - started).toBeLessThan(2 * deadlineMs);
      expect(first.ok).toBe(true);
      // Each now spends its lease and no more, once its heartbeat (a deadline's wait) has
      // taken Redis out of the way.
      await sleep(3 * deadlineMs);
      let granted = 1;
      for (const guard of guards)
        for (let i = 0; i < 200; i++) if ((await guard.tryAcquire()).ok) granted++;
      expect(granted).toBe(3 * 30);
      expect(await guards[0]!.tryAcquire()).toMatchObject({ ok: false, reason: 'quota_exhausted' });
    } finally {
      redis.thaw();
    }
    for (const guard of guards) guard.close();
  });
});
