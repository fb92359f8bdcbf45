import { describe, expect, it } from 'vitest';
import { createClientRateLimit } from './client-rate-limit.ts';

describe('per-client rate limit: a token bucket per address', () => {
  it('allows a burst, then refills at the given rate, per client', () => {
    let now = 0;
    const limit = createClientRateLimit({ burst: 3, perSecond: 2, now: () => now });
    expect([1, 2, 3].map(() => limit.take('a').ok)).toEqual([true, true, true]);
    expect(limit.take('a')).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(limit.take('b').ok).toBe(true); // another client is unaffected
    now += 500; // one token back
    expect(limit.take('a').ok).toBe(true);
    expect(limit.take('a').ok).toBe(false);
    now += 10_000; // refills to the burst, not beyond
    expect([1, 2, 3, 4].map(() => limit.take('a').ok)).toEqual([true, true, true, false]);
  });
});
