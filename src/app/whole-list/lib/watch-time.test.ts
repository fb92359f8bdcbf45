import { describe, expect, it } from 'vitest';
import { formatLongDuration } from './watch-time.ts';

describe('long durations', () => {
  it('says hours and minutes, or minutes and seconds, in the locale’s words', () => {
    expect(formatLongDuration(416 * 3600 + 40 * 60 + 12, 'en')).toBe('416 hr, 40 min');
    expect(formatLongDuration(12 * 60 + 5, 'en')).toBe('12 min, 5 sec');
    expect(formatLongDuration(45, 'en')).toBe('45 sec');
    expect(formatLongDuration(0, 'en')).toBe('0 sec');
    expect(formatLongDuration(3600, 'ja')).toMatch(/時間/);
    expect(formatLongDuration(7200, 'de')).toMatch(/Std/);
  });
});
