import { describe, expect, it } from 'vitest';
import { describeDuration, formatCompact, formatCount, formatDuration, plural } from './format.ts';

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

  it('describes durations in words', () => {
    expect(describeDuration(3661)).toBe('1 hour 1 minute 1 second');
    expect(describeDuration(120)).toBe('2 minutes');
    expect(describeDuration(0)).toBe('0 seconds');
    expect(describeDuration(null)).toBe('live');
  });
});

describe('numbers', () => {
  it('compacts view counts, locale-aware', () => {
    expect(formatCompact(950, 'en-US')).toBe('950');
    expect(formatCompact(1234, 'en-US')).toBe('1.2K');
    expect(formatCompact(1_234_567, 'en-US')).toBe('1.2M');
    expect(formatCompact(2_000_000_000, 'en-US')).toBe('2B');
    expect(formatCompact(1_234_567, 'de-DE')).toMatch(/^1,2\sMio\.$/);
  });

  it('counts and pluralizes', () => {
    expect(formatCount(5000, 'en-US')).toBe('5,000');
    expect(plural(1, 'video', 'videos', 'en-US')).toBe('1 video');
    expect(plural(5000, 'video', 'videos', 'en-US')).toBe('5,000 videos');
    expect(plural(0, 'video', 'videos', 'en-US')).toBe('0 videos');
  });
});
