import { describe, expect, it } from 'vitest';
import { secondsUntilJobCalls } from './job-room.ts';
import { createQuotaGuard } from './quota-guard.ts';

describe('when a job may spend again', () => {
  it('the later of the pause and the room in the jobs’ part of the window', async () => {
    let now = 1_000_000_000_000;
    const quota = createQuotaGuard({
      budget: 10,
      windowSeconds: 60,
      readerReserve: 0.5,
      now: () => now,
    });
    expect(await secondsUntilJobCalls(quota, 5)).toBe(0);
    quota.charge(4);
    expect(await secondsUntilJobCalls(quota, 1)).toBe(0);
    expect(await secondsUntilJobCalls(quota, 2)).toBe(60);
    now += 20_000;
    quota.pauseFor(50);
    expect(await secondsUntilJobCalls(quota, 1)).toBe(50);
    expect(await secondsUntilJobCalls(quota, 2)).toBe(50);
    now += 50_000;
    expect(await secondsUntilJobCalls(quota, 5)).toBe(0);
  });
});
