import { describe, expect, it } from 'vitest';
import { backoffMs } from './backoff.ts';

describe('backoffMs', () => {
  it('doubles from the first wait up to the cap', () => {
    const rule = { firstMs: 100, maxMs: 1000 };
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, rule))).toEqual([
      100, 200, 400, 800, 1000, 1000,
    ]);
  });

  it('spreads the wait by its jitter either side', () => {
    const rule = { firstMs: 1000, maxMs: 10_000, jitter: 0.5 };
    expect(backoffMs(1, rule, () => 0)).toBe(500);
    expect(backoffMs(1, rule, () => 0.999_999)).toBe(1500);
    expect(backoffMs(2, rule, () => 0.5)).toBe(2000);
  });

  it('never overflows, however long the streak', () => {
    expect(backoffMs(10_000, { firstMs: 1, maxMs: 60_000 })).toBe(60_000);
  });
});
