import { setupI18n } from '@lingui/core';
import { describe, expect, it } from 'vitest';
import { compileCatalog } from '../../../shared/i18n/catalog-files.ts';
import { inverseOrder, SORT_CHOICES, SORT_PENDING, sortChoice, sortOrder } from './list-sort.ts';

describe('sort', () => {
  const { t } = setupI18n({ locale: 'en', messages: { en: compileCatalog('en') } });
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
    expect(t(sortChoice('playlist', 'views')!.label)).toBe('Most viewed');
    // The list's own order is named for the list.
    expect(t(sortChoice('playlist', 'given')!.label)).toBe('Playlist order');
    expect(t(sortChoice('channel-videos', 'given')!.label)).toBe('Newest first');
  });

  it('says what each order that waits for the whole list will be', () => {
    expect(t(SORT_PENDING.longest)).toBe('Sorted longest first once the whole list is loaded.');
    for (const choice of Object.values(SORT_CHOICES).flat()) {
      if (choice.key === 'given') continue;
      expect(t(SORT_PENDING[choice.key])).toMatch(/^Sorted .+ once the whole list is loaded\.$/);
    }
  });
});
