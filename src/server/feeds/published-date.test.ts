import { describe, expect, it } from 'vitest';
import { publishedDate } from './published-date.ts';

const NOW = Date.UTC(2026, 10, 26, 12, 0, 0);
const DAY = 86_400_000;

describe('an item’s age as a date', () => {
  it('reads the service’s relative forms against the fetch time', () => {
    expect(publishedDate('3 weeks ago', NOW)).toEqual(new Date(NOW - 21 * DAY));
    expect(publishedDate('1 day ago', NOW)).toEqual(new Date(NOW - DAY));
    expect(publishedDate('Streamed 2 hours ago', NOW)).toEqual(new Date(NOW - 2 * 3_600_000));
    expect(publishedDate('6 years ago', NOW)).toEqual(new Date(NOW - 6 * 365 * DAY));
  });

  it('gives null for what it cannot read, never a made-up date', () => {
    for (const text of [null, '', 'yesterday', 'Premieres tomorrow', '99999999 days ago'])
      expect(publishedDate(text, NOW)).toBeNull();
  });
});
