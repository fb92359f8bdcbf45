import { describe, expect, it } from 'vitest';
import { buildHaystack, findMatches, normalizeQuery, stepMatch } from './list-find.ts';

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
