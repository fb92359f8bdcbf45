import { describe, expect, it } from 'vitest';
import { inverseOrder, SORT_CHOICES, sortChoice, sortOrder } from './list-sort.ts';

describe('sort', () => {
  const durations = [30, null, 600, 30, 5];
  const value = (p: number) => durations[p]!;

  it('keeps the list order for "given", reverses it for "oldest"', () => {
    expect(sortOrder(5, 'given', value)).toBeNull();
    expect([...sortOrder(5, 'oldest', value)!]).toEqual([4, 3, 2, 1, 0]);
  });

  it('sorts longest and shortest first, missing values last, ties in list order', () => {
    expect([...sortOrder(5, 'longest', value)!]).toEqual([2, 0, 3, 4, 1]);
    expect([...sortOrder(5, 'shortest', value)!]).toEqual([4, 0, 3, 2, 1]);
  });

  it('inverts an order', () => {
    const order = Int32Array.from([2, 0, 1]);
    expect([...inverseOrder(order)]).toEqual([1, 2, 0]);
  });

  it('offers each list its own orders', () => {
    expect(SORT_CHOICES['channel-videos'].map((c) => c.key)).toEqual([
      'given',
      'oldest',
      'views',
      'longest',
      'shortest',
    ]);
    expect(sortChoice('playlist', 'oldest')).toBeUndefined();
    expect(sortChoice('playlist', 'views')?.label).toBe('Most viewed');
  });
});
