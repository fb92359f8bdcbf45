import { describe, expect, it } from 'vitest';
import { formatWindow, jobCapOf, parseWindowDuration, windowLayout } from './quota-window.ts';

describe('the quota window: its length as written, and how it is counted', () => {
  it('reads s, m, h and d, and a bare number as seconds', () => {
    expect(parseWindowDuration('30s')).toBe(30);
    expect(parseWindowDuration('15m')).toBe(900);
    expect(parseWindowDuration('1h')).toBe(3600);
    expect(parseWindowDuration('24h')).toBe(86_400);
    expect(parseWindowDuration('1d')).toBe(86_400);
    expect(parseWindowDuration('7d')).toBe(604_800);
    expect(parseWindowDuration('90')).toBe(90);
    expect(parseWindowDuration(' 10S ')).toBe(10);
    expect(parseWindowDuration('1')).toBe(1);
  });

  it('refuses what is not a whole duration from 1 s to 7 days, saying why', () => {
    for (const nonsense of ['', 'h', '1.5h', '-5s', '1w', '1h30m', 'soon', '0x10', '1e3'])
      expect(parseWindowDuration(nonsense)).toMatch(/is not a duration/);
    expect(parseWindowDuration('0')).toMatch(/shorter than 1 s/);
    expect(parseWindowDuration('0s')).toMatch(/shorter than 1 s/);
    expect(parseWindowDuration('8d')).toMatch(/longer than 7 days/);
    expect(parseWindowDuration('604801')).toMatch(/longer than 7 days/);
  });

  it('says a window as people write it', () => {
    expect([3600, 86_400, 900, 90, 10].map(formatWindow)).toEqual([
      '1h',
      '24h',
      '15m',
      '90s',
      '10s',
    ]);
  });

  it('one bucket per second up to an hour; past it, as many buckets as an hour, whatever the window', () => {
    expect(windowLayout(10)).toEqual({
      windowSeconds: 10,
      bucketSeconds: 1,
      buckets: 10,
      spanSeconds: 10,
    });
    expect(windowLayout(3600).buckets).toBe(3600);
    for (const seconds of [3601, 7200, 86_400, 100_001, 604_800]) {
      const layout = windowLayout(seconds);
      expect(layout.buckets).toBeLessThanOrEqual(3601);
      // The latest second of a bucket still counts a whole window later.
      expect(layout.spanSeconds - (layout.bucketSeconds - 1)).toBeGreaterThanOrEqual(seconds);
      expect(layout.spanSeconds).toBeLessThan(seconds + 2 * layout.bucketSeconds);
    }
    expect(() => windowLayout(0)).toThrow(RangeError);
    expect(() => windowLayout(1.5)).toThrow(RangeError);
  });

  it("jobs' part of a budget: the readers' reserve kept, rounded down", () => {
    expect(jobCapOf(10_000, 0.2)).toBe(8000);
    expect(jobCapOf(10, 0.25)).toBe(7);
    expect(jobCapOf(10, 0)).toBe(10);
    expect(jobCapOf(0, 0.2)).toBe(0);
  });
});
