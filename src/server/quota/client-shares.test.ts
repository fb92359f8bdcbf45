import { describe, expect, it } from 'vitest';
import { createClientRateLimit } from './client-rate-limit.ts';
import { createClientShares, withClientShares } from './client-shares.ts';

describe('client shares: the most of the hour one address may spend', () => {
  it('counts each client apart, refuses past the share, and says when the oldest leave', () => {
    let now = 1_000_000_000_000;
    const shares = createClientShares({ perClient: 3, now: () => now });
    expect(shares.take('a').ok).toBe(true);
    now += 20 * 60_000;
    expect([shares.take('a').ok, shares.take('a').ok]).toEqual([true, true]);
    expect(shares.take('a')).toEqual({ ok: false, retryAfterSeconds: 40 * 60 });
    expect(shares.take('b').ok).toBe(true);
    expect(shares.room('a')).toBe(0);
    now += 40 * 60_000;
    expect(shares.room('a')).toBe(1);
  });

  it('reserves a walk up front and gives back what it did not spend', () => {
    const now = 1_000_000_000_000;
    const shares = createClientShares({ perClient: 10, now: () => now });
    const walk = shares.reserve('a', 8);
    if (!walk.ok) throw new Error('expected a reservation');
    expect(shares.room('a')).toBe(2);
    expect(shares.reserve('a', 3)).toMatchObject({ ok: false });
    expect([1, 2, 3].map(() => walk.reservation.take())).toEqual([true, true, true]);
    walk.reservation.release();
    expect(shares.room('a')).toBe(7);
  });

  it('behind the burst allowance, a spent share is told apart from a fast pace', () => {
    const now = 0;
    const limit = withClientShares(
      createClientRateLimit({ burst: 100, perSecond: 1, now: () => now }),
      createClientShares({ perClient: 2, now: () => now }),
    );
    expect([limit.take('a'), limit.take('a')]).toEqual([{ ok: true }, { ok: true }]);
    expect(limit.take('a')).toMatchObject({ ok: false, limit: 'share' });
  });

  it('counts over the quota’s window: with 10 s, a share comes back ten seconds on', () => {
    let now = 1_000_000_000_000;
    const shares = createClientShares({ perClient: 2, windowSeconds: 10, now: () => now });
    expect(shares.take('a').ok).toBe(true);
    now += 3_000;
    expect(shares.take('a').ok).toBe(true);
    expect(shares.take('a')).toEqual({ ok: false, retryAfterSeconds: 7 });
    now += 7_000;
    expect(shares.room('a')).toBe(1);
    expect(shares.secondsUntilRoomFor('a', 2)).toBe(3);
  });

  it('over a day, a client’s lookups in one bucket are one entry that leaves with the latest', () => {
    let now = 1_000_000_000_000;
    const shares = createClientShares({ perClient: 3, windowSeconds: 86_400, now: () => now });
    expect(shares.take('a').ok).toBe(true);
    // 1e12 ms is 16 s into a 24 s bucket: five seconds on is the same bucket, one entry.
    now += 5_000;
    expect(shares.take('a').ok).toBe(true);
    now += 86_400_000 - 4_000;
    // The first lookup is a day old, but it leaves with the second, five seconds later.
    expect(shares.room('a')).toBe(1);
    now += 4_001;
    expect(shares.room('a')).toBe(3);
  });

  it('a reservation given back after its lookups left the window gives back nothing more', () => {
    let now = 1_000_000_000_000;
    const shares = createClientShares({ perClient: 10, windowSeconds: 10, now: () => now });
    const long = shares.reserve('a', 6);
    if (!long.ok) throw new Error('expected a reservation');
    long.reservation.take();
    now += 10_001;
    expect(shares.take('a').ok).toBe(true);
    long.reservation.release();
    expect(shares.room('a')).toBe(9);
  });

  it('a job’s lookups, one reservation each, are counted in their buckets and leave on time', () => {
    let now = 1_000_000_000_000;
    const shares = createClientShares({ perClient: 1000, windowSeconds: 10, now: () => now });
    for (let i = 0; i < 1000; i++) {
      const one = shares.reserve('job', 1);
      if (!one.ok) throw new Error(`refused at ${i}`);
      one.reservation.take();
      one.reservation.release();
      now += 5;
    }
    expect(shares.room('job')).toBe(0);
    expect(shares.reserve('job', 1)).toMatchObject({ ok: false });
    // The first second's lookups leave ten seconds on, and no sooner.
    now = 1_000_000_000_000 + 10_000;
    expect(shares.room('job')).toBe(0);
    now += 1_000;
    expect(shares.room('job')).toBeGreaterThanOrEqual(199);
  });
});
