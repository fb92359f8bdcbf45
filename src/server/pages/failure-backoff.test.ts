import { describe, expect, it } from 'vitest';
import { createFailureBackoff } from './failure-backoff.ts';

describe('failure back-off', () => {
  const table = (maxEntries = 100) => {
    let clock = 0;
    const backoff = createFailureBackoff<string>({
      initialMs: 1000,
      maxMs: 8000,
      maxEntries,
      jitter: 0,
      now: () => clock,
    });
    return { backoff, advance: (ms: number) => (clock += ms) };
  };

  it('holds a failing page for a wait that doubles with each failure in a row, up to the cap', () => {
    const { backoff, advance } = table();
    const waits: number[] = [];
    for (let i = 0; i < 6; i++) {
      const hold = backoff.failed('p', `failure ${i}`);
      waits.push(hold.retryAfterSeconds * 1000);
      expect(backoff.holding('p')?.detail).toBe(`failure ${i}`);
      advance(hold.retryAfterSeconds * 1000);
      expect(backoff.holding('p')).toBeUndefined();
    }
    expect(waits).toEqual([1000, 2000, 4000, 8000, 8000, 8000]);
  });

  it('forgets the streak on success, and after a quiet spell', () => {
    const { backoff, advance } = table();
    backoff.failed('p', 'x');
    advance(1000);
    expect(backoff.failed('p', 'x').retryAfterSeconds).toBe(2);
    backoff.succeeded('p');
    expect(backoff.holding('p')).toBeUndefined();
    expect(backoff.failed('p', 'x').retryAfterSeconds).toBe(1);
    advance(1000 + 8000); // the wait, then a quiet max wait
    expect(backoff.failed('p', 'x').retryAfterSeconds).toBe(1);
  });

  it('remembers a bounded number of pages, the longest-failed dropped first', () => {
    const { backoff } = table(3);
    for (const key of ['a', 'b', 'c', 'd']) backoff.failed(key, key);
    expect(backoff.stats().entries).toBe(3);
    expect(backoff.holding('a')).toBeUndefined();
    expect(backoff.holding('d')?.detail).toBe('d');
  });
});
