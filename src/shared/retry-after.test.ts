import { describe, expect, it } from 'vitest';
import { retryAfterSeconds } from './retry-after.ts';

describe('retryAfterSeconds', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('reads delay-seconds and HTTP-dates, from now', () => {
    expect(retryAfterSeconds('12', now)).toBe(12);
    expect(retryAfterSeconds(' 7 ', now)).toBe(7);
    expect(retryAfterSeconds('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30);
    expect(retryAfterSeconds(['5', '9'], now)).toBe(5);
  });

  it('gives 0 for a date gone by, and null for what it cannot read', () => {
    expect(retryAfterSeconds('Wed, 31 Dec 2025 23:59:00 GMT', now)).toBe(0);
    expect(retryAfterSeconds('soon', now)).toBeNull();
    expect(retryAfterSeconds('-3', now)).toBeNull();
    expect(retryAfterSeconds('', now)).toBeNull();
    expect(retryAfterSeconds(null, now)).toBeNull();
    expect(retryAfterSeconds(undefined, now)).toBeNull();
  });
});
