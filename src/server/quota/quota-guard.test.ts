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
