import { describe, expect, it } from 'vitest';
import { createQuotaGuard } from './quota-guard.ts';

describe('quota guard: a budget per sliding hour', () => {
  it('grants exactly the budget, then refuses with the time until the oldest call leaves the window', () => {
    let now = 1_000_000_000_000;
    const quota = createQuotaGuard({ budgetPerHour: 3, now: () => now });
    expect(quota.tryAcquire()).toEqual({ ok: true });
    now += 10 * 60_000; // ten minutes later
    expect(quota.tryAcquire()).toEqual({ ok: true });
    expect(quota.tryAcquire()).toEqual({ ok: true });
    const refused = quota.tryAcquire();
    expect(refused).toEqual({ ok: false, reason: 'quota_exhausted', retryAfterSeconds: 50 * 60 });
    expect(quota.stats()).toMatchObject({ budget: 3, usedLastHour: 3 });

    now += 50 * 60_000; // the first call is now an hour old
    expect(quota.tryAcquire()).toEqual({ ok: true });
    expect(quota.tryAcquire().ok).toBe(false);
  });

  it('forgets everything after an hour of silence', () => {
    let now = 5_000;
    const quota = createQuotaGuard({ budgetPerHour: 2, now: () => now });
    quota.tryAcquire();
    quota.tryAcquire();
    expect(quota.tryAcquire().ok).toBe(false);
    now += 3 * 3600_000;
    expect(quota.stats().usedLastHour).toBe(0);
    expect(quota.tryAcquire().ok).toBe(true);
  });

  it('says how long until a number of calls fits: now, when the oldest leave, or never', () => {
    let now = 1_000_000_000_000;
    const quota = createQuotaGuard({ budgetPerHour: 10, now: () => now });
    for (let i = 0; i < 4; i++) quota.tryAcquire();
    now += 20 * 60_000;
    for (let i = 0; i < 4; i++) quota.tryAcquire();
    expect(quota.secondsUntilRoomFor(2)).toBe(0);
    // Five more need three of the eight to leave: the first four go in 40 minutes.
    expect(quota.secondsUntilRoomFor(5)).toBe(40 * 60);
    // Seven more need five to leave: the second four go in an hour.
    expect(quota.secondsUntilRoomFor(7)).toBe(60 * 60);
    expect(quota.secondsUntilRoomFor(11)).toBe(3600);
  });

  it('a budget of 0 refuses every call', () => {
    expect(createQuotaGuard({ budgetPerHour: 0 }).tryAcquire().ok).toBe(false);
  });

  it('holds all calls while the upstream asked to wait (429 Retry-After), spending nothing', () => {
    let now = 0;
    const quota = createQuotaGuard({ budgetPerHour: 100, now: () => now });
    quota.pauseFor(30);
    expect(quota.tryAcquire()).toEqual({
      ok: false,
      reason: 'upstream_rate_limited',
      retryAfterSeconds: 30,
    });
    now += 29_500;
    expect(quota.tryAcquire()).toEqual({
      ok: false,
      reason: 'upstream_rate_limited',
      retryAfterSeconds: 1,
    });
    now += 500;
    expect(quota.tryAcquire()).toEqual({ ok: true });
    expect(quota.stats().usedLastHour).toBe(1);
  });

  it('reserves calls all at once: others cannot take them, the walk spends them, the rest comes back', () => {
    let now = 1_000_000_000_000;
    const quota = createQuotaGuard({ budgetPerHour: 10, now: () => now });
    quota.tryAcquire();
    const reserved = quota.reserve(6);
    if (!reserved.ok) throw new Error('expected a reservation');
    const { reservation } = reserved;
    expect(quota.stats().usedLastHour).toBe(7);
    // Three are left for everyone else; a second walk of six does not fit, up front.
    expect(quota.reserve(6)).toMatchObject({ ok: false, reason: 'quota_exhausted' });
    expect([1, 2, 3, 4].map(() => quota.tryAcquire().ok)).toEqual([true, true, true, false]);
    // The walk spends its own, whatever the others did.
    expect([1, 2, 3, 4].map(() => reservation.take())).toEqual([true, true, true, true]);
    expect(reservation.remaining).toBe(2);
    now += 5_000;
    reservation.release();
    reservation.release();
    expect(reservation.take()).toBe(false);
    // The two unspent came back; the four spent stay counted.
    expect(quota.stats().usedLastHour).toBe(8);
    expect(quota.tryAcquire().ok).toBe(true);
  });

  it('refuses a reservation larger than the budget, or during a pause, saying how long', () => {
    const now = 1_000_000_000_000;
    const quota = createQuotaGuard({ budgetPerHour: 5, now: () => now });
    expect(quota.reserve(6)).toEqual({
      ok: false,
      reason: 'quota_exhausted',
      retryAfterSeconds: 3600,
    });
    quota.pauseFor(30);
    expect(quota.reserve(1)).toEqual({
      ok: false,
      reason: 'upstream_rate_limited',
      retryAfterSeconds: 30,
    });
  });
});

describe('quota guard: a window of any length', () => {
  it('a 10 s window slides: calls free up ten seconds after they were made', () => {
    let now = 1_000_000_000_000;
    const quota = createQuotaGuard({ budget: 3, windowSeconds: 10, now: () => now });
    expect(quota.tryAcquire().ok).toBe(true);
    now += 4_000;
    expect([quota.tryAcquire().ok, quota.tryAcquire().ok]).toEqual([true, true]);
    expect(quota.tryAcquire()).toEqual({
      ok: false,
      reason: 'quota_exhausted',
      retryAfterSeconds: 6,
    });
    expect(quota.stats()).toEqual({
      budget: 3,
      windowSeconds: 10,
      usedInWindow: 3,
      usedLastHour: 3,
      pausedForSeconds: 0,
    });
    now += 5_999;
    expect(quota.tryAcquire().ok).toBe(false);
    now += 1; // the first call is ten seconds old
    expect(quota.tryAcquire().ok).toBe(true);
    expect(quota.secondsUntilRoomFor(2)).toBe(4);
    now += 4_000;
    expect(quota.stats().usedInWindow).toBe(1);
    now += 60_000;
    expect(quota.stats().usedInWindow).toBe(0);
    // More than the budget never fits: the answer is a whole window.
    expect(quota.secondsUntilRoomFor(4)).toBe(10);
  });

  it('the old option name budgetPerHour is still the budget, over an hour', () => {
    const quota = createQuotaGuard({ budgetPerHour: 7 });
    expect(quota.stats()).toMatchObject({ budget: 7, windowSeconds: 3600 });
    expect(quota.layout).toEqual({
      windowSeconds: 3600,
      bucketSeconds: 1,
      buckets: 3600,
      spanSeconds: 3600,
    });
  });

  it('a 24 h window holds as many buckets as an hour, and never lets a call go before 24 h', () => {
    const start = 1_000_000_000_000;
    let now = start;
    const quota = createQuotaGuard({ budget: 1440, windowSeconds: 86_400, now: () => now });
    expect(quota.layout.buckets).toBeLessThanOrEqual(3601);
    expect(quota.layout.bucketSeconds).toBe(24);
    const week = createQuotaGuard({ budget: 1000, windowSeconds: 7 * 86_400 });
    expect(week.layout.buckets).toBe(quota.layout.buckets);
    // A call every minute for a day: 1440 of them, all counted.
    for (let minute = 0; minute < 1440; minute++) {
      expect(quota.tryAcquire().ok).toBe(true);
      now += 60_000;
    }
    expect(quota.tryAcquire().ok).toBe(false);
    // The first call leaves no sooner than 24 h after it was made, and within two buckets more.
    now = start + 86_400_000 - 1000;
    expect(quota.stats().usedInWindow).toBe(1440);
    const wait = quota.secondsUntilRoomFor(1);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(1 + 2 * 24);
    now += wait * 1000;
    expect(quota.stats().usedInWindow).toBe(1439);
    expect(quota.tryAcquire().ok).toBe(true);
    expect(quota.tryAcquire().ok).toBe(false);
  });
});

describe('quota guard: the readers’ reserve and the jobs’ room', () => {
  it('jobs may count up to budget × (1 − reserve); readers may use the whole budget', () => {
    let now = 1_000_000_000_000;
    const quota = createQuotaGuard({
      budget: 10,
      windowSeconds: 10,
      readerReserve: 0.2,
      now: () => now,
    });
    expect(quota.jobRoom()).toBe(8);
    const job = quota.reserveForJob(5);
    if (!job.ok) throw new Error('expected a reservation');
    expect(quota.jobRoom()).toBe(3);
    // Four more would leave less than the readers' two: refused, with when it fits.
    expect(quota.reserveForJob(4)).toEqual({
      ok: false,
      reason: 'quota_exhausted',
      retryAfterSeconds: 10,
    });
    now += 3_000;
    expect(quota.reserveForJob(3).ok).toBe(true);
    expect(quota.jobRoom()).toBe(0);
    expect(quota.secondsUntilJobRoom(1)).toBe(7);
    // The readers still have their two.
    expect([quota.tryAcquire().ok, quota.tryAcquire().ok, quota.tryAcquire().ok]).toEqual([
      true,
      true,
      false,
    ]);
    expect(quota.jobRoom()).toBe(0);
    // Readers spending the reserve do not lend it to jobs, but room comes back as calls leave.
    now += 7_000;
    expect(quota.jobRoom()).toBe(3);
    expect(quota.secondsUntilJobRoom(3)).toBe(0);
    expect(quota.secondsUntilJobRoom(4)).toBe(3);
    // More than the jobs' part never fits: a whole window.
    expect(quota.secondsUntilJobRoom(9)).toBe(10);
    // What a job does not spend comes back to its room.
    now += 3_000;
    expect(quota.jobRoom()).toBe(8);
    const second = quota.reserveForJob(6);
    if (!second.ok) throw new Error('expected a reservation');
    second.reservation.take();
    second.reservation.release();
    expect(quota.jobRoom()).toBe(8 - 1);
  });

  it('a reserve of 0 lets jobs use the whole budget; a budget of 0 leaves them nothing', () => {
    const quota = createQuotaGuard({ budget: 5, readerReserve: 0 });
    expect(quota.jobRoom()).toBe(5);
    expect(quota.reserveForJob(5).ok).toBe(true);
    expect(createQuotaGuard({ budget: 0 }).jobRoom()).toBe(0);
  });

  it('a pause stops jobs as it stops readers', () => {
    const now = 1_000_000_000_000;
    const quota = createQuotaGuard({ budget: 10, now: () => now });
    quota.pauseFor(30);
    expect(quota.reserveForJob(1)).toEqual({
      ok: false,
      reason: 'upstream_rate_limited',
      retryAfterSeconds: 30,
    });
  });
});
