import { describe, expect, it } from 'vitest';
import { buildHaystack, findMatches, normalizeQuery, stepMatch } from './list-find.ts';
import { durationBins, logBins } from './histogram.ts';
import { inverseOrder, SORT_CHOICES, sortChoice, sortOrder } from './list-sort.ts';
import {
  hasPanelParams,
  NO_PANEL_PARAMS,
  readPanelParams,
  withPanelParams,
} from './whole-list-params.ts';

describe('panel parameters in the address', () => {
  it('reads q, sort, from and to, leaving out what it cannot read', () => {
    expect(readPanelParams('?q=jazz&sort=views&from=20&to=60')).toEqual({
      q: 'jazz',
      sort: 'views',
      from: 20,
      to: 60,
    });
    expect(readPanelParams('?sort=sideways&from=0&to=x')).toEqual(NO_PANEL_PARAMS);
    // A range given backwards is read the right way round.
    expect(readPanelParams('?from=60&to=20')).toMatchObject({ from: 20, to: 60 });
  });

  it('opens the panel only when the link names one of its choices', () => {
    expect(hasPanelParams(readPanelParams('?index=40'))).toBe(false);
    expect(hasPanelParams(readPanelParams('?from=2'))).toBe(true);
    expect(hasPanelParams(readPanelParams('?q=a'))).toBe(true);
  });

  it('writes choices, drops defaults and keeps the rest of the address', () => {
    const href = 'https://x.test/playlist/P?index=40&q=old';
    expect(withPanelParams(href, { q: 'new', sort: 'longest' })).toBe(
      'https://x.test/playlist/P?index=40&q=new&sort=longest',
    );
    expect(withPanelParams(href, NO_PANEL_PARAMS)).toBe('https://x.test/playlist/P?index=40');
    expect(withPanelParams(href, { from: 3, to: undefined })).toBe(
      'https://x.test/playlist/P?index=40&q=old&from=3',
    );
  });
});

describe('find', () => {
  const items = [
    { title: 'Jazz Piano basics', channelTitle: 'Keys' },
    { title: 'Retro consoles', channelTitle: 'JAZZ hands' },
    { title: 'Cooking', channelTitle: 'Chef' },
  ];

  it('matches titles and channel names, whatever the case and spacing', () => {
    const haystack = buildHaystack(items);
    expect([...findMatches(haystack, 'jazz')]).toEqual([0, 1]);
    expect([...findMatches(haystack, '  PIANO   basics ')]).toEqual([0]);
    expect([...findMatches(haystack, 'nothing')]).toEqual([]);
    expect([...findMatches(haystack, '   ')]).toEqual([]);
    expect(normalizeQuery(' A  b ')).toBe('a b');
  });

  it('lowercases each item once', () => {
    const first = buildHaystack(items);
    items[0]!.title = 'changed'; // the same object: its text is remembered
    expect(buildHaystack(items)[0]).toBe(first[0]);
  });

  it('steps through matches, going round at the ends', () => {
    expect(stepMatch(-1, 3, 1)).toBe(0);
    expect(stepMatch(-1, 3, -1)).toBe(2);
    expect(stepMatch(2, 3, 1)).toBe(0);
    expect(stepMatch(0, 3, -1)).toBe(2);
    expect(stepMatch(-1, 0, 1)).toBe(-1);
  });

  it('stays well under a frame for 10,000 items', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => ({
      title: `Video number ${i} about topic ${i % 97}`,
      channelTitle: `Channel ${i % 13}`,
    }));
    const haystack = buildHaystack(many);
    const start = performance.now();
    for (const query of ['v', 'vi', 'vid', 'vide', 'video', 'topic 9', 'channel 12']) {
      findMatches(haystack, query);
    }
    expect((performance.now() - start) / 7).toBeLessThan(16);
  });
});

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

describe('histograms', () => {
  it('bins durations, counting live streams apart', () => {
    const { bins, missing } = durationBins([10, 59, 60, 299, 3600, 9000, null]);
    expect(missing).toBe(1);
    expect(bins.map((b) => b.count)).toEqual([2, 2, 0, 0, 0, 0, 1, 1]);
  });

  it('bins views by power of ten, zero only when there is one', () => {
    const { bins } = logBins([0, 5, 50, 5000, null]);
    expect(bins.map((b) => [b.label, b.count])).toEqual([
      ['0', 1],
      ['1+', 1],
      ['10+', 1],
      ['100+', 0],
      ['1K+', 1],
    ]);
    expect(logBins([1_200_000]).bins.at(-1)).toMatchObject({ label: '1M+', count: 1 });
    expect(logBins([3]).bins.map((b) => b.label)).toEqual(['1+']);
  });
});
