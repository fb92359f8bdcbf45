import { describe, expect, it } from 'vitest';
import { timeLeft } from './time-left.ts';

describe('time left from a position', () => {
  const items = [1, 2, 3, 4].map((index) => ({ index, duration: index * 60 }));

  it('is exact when every item from the position on is loaded', () => {
    expect(timeLeft(items, 3, 4)).toEqual({ seconds: 420, exact: true });
  });

  it('estimates the unloaded rest at the loaded average, and says so', () => {
    // Items 3..6: 180 + 240 loaded, two more at the average of 150.
    expect(timeLeft(items, 3, 6)).toEqual({ seconds: 720, exact: false });
  });

  it('counts an item without a duration (a live stream) as unknown', () => {
    const withLive = [...items, { index: 5, duration: null }];
    expect(timeLeft(withLive, 5, 5)).toEqual({ seconds: 150, exact: false });
  });

  it('has nothing to say with no durations', () => {
    expect(timeLeft([], 1, 10)).toBeNull();
  });
});
