import { describe, expect, it } from 'vitest';
import { formatDuration, formatsFor } from './format.ts';

describe('formatDuration', () => {
  it('writes M:SS under an hour and H:MM:SS from an hour', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(7)).toBe('0:07');
    expect(formatDuration(59)).toBe('0:59');
    expect(formatDuration(60)).toBe('1:00');
    expect(formatDuration(3599)).toBe('59:59');
    expect(formatDuration(3600)).toBe('1:00:00');
    expect(formatDuration(3661)).toBe('1:01:01');
    expect(formatDuration(36_000 + 5)).toBe('10:00:05');
  });

  it('gives null for live streams and nonsense', () => {
    expect(formatDuration(null)).toBeNull();
    expect(formatDuration(-1)).toBeNull();
    expect(formatDuration(Number.NaN)).toBeNull();
  });
});

describe('formats in the reader’s locale', () => {
  it('describes durations in the locale’s words', () => {
    expect(formatsFor('en').describeDuration(3661)).toBe('1 hour, 1 minute, 1 second');
    expect(formatsFor('en').describeDuration(120)).toBe('2 minutes');
    expect(formatsFor('en').describeDuration(0)).toBe('0 seconds');
    expect(formatsFor('de').describeDuration(3661)).toMatch(/Stunde/);
    expect(formatsFor('ja').describeDuration(61)).toMatch(/分/);
  });

  it('writes a wait in its largest unit, rounded up', () => {
    expect(formatsFor('en').formatWait(1)).toBe('1 second');
    expect(formatsFor('en').formatWait(61)).toBe('2 minutes');
    expect(formatsFor('en').formatWait(3601)).toBe('2 hours');
    expect(formatsFor('fr').formatWait(120)).toBe('2 minutes');
    expect(formatsFor('ru').formatWait(120)).toBe('2 минуты');
  });

  it('compacts view counts', () => {
    expect(formatsFor('en').formatCompact(950)).toBe('950');
    expect(formatsFor('en').formatCompact(1234)).toBe('1.2K');
    expect(formatsFor('en').formatCompact(1_234_567)).toBe('1.2M');
    expect(formatsFor('en').formatCompact(2_000_000_000)).toBe('2B');
    expect(formatsFor('de').formatCompact(1_234_567)).toMatch(/^1,2\sMio\.$/);
  });

  it('groups counts as each locale does', () => {
    expect(formatsFor('en').formatCount(5000)).toBe('5,000');
    expect(formatsFor('de').formatCount(5000)).toBe('5.000');
    expect(formatsFor('fr').formatCount(5000)).toMatch(/^5\s000$/);
    expect(formatsFor('hi').formatCount(1_234_567)).toBe('12,34,567');
  });
});
