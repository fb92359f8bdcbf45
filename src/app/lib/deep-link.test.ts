import { describe, expect, it } from 'vitest';
import { findTarget, readSeekTarget, seekState, withTopIndex } from './deep-link.ts';

const VIDEO = 'dQw4w9WgXcQ';
const items = [1, 2, 3, 4].map((index) => ({ index, id: `video${index}abcd` }));

describe('readSeekTarget', () => {
  it('reads a position or a video, the position first', () => {
    expect(readSeekTarget('?index=12')).toEqual({ index: 12 });
    expect(readSeekTarget(`?v=${VIDEO}`)).toEqual({ videoId: VIDEO });
    expect(readSeekTarget(`?v=${VIDEO}&index=3`)).toEqual({ index: 3 });
  });

  it('ignores what is not a position or a video ID', () => {
    expect(readSeekTarget('')).toBeNull();
    expect(readSeekTarget('?index=0')).toBeNull();
    expect(readSeekTarget('?v=short')).toBeNull();
    expect(readSeekTarget(`?index=x&v=${VIDEO}`)).toEqual({ videoId: VIDEO });
  });
});

describe('findTarget', () => {
  it('finds a position directly, or by the items’ own index', () => {
    expect(findTarget(items, { index: 3 })).toBe(2);
    expect(findTarget(items.slice(1), { index: 3 })).toBe(1);
    expect(findTarget(items, { index: 9 })).toBe(-1);
  });

  it('finds a video by its ID', () => {
    expect(findTarget(items, { videoId: 'video4abcd' })).toBe(3);
    expect(findTarget(items, { videoId: VIDEO })).toBe(-1);
  });
});

describe('seekState', () => {
  const base = { seeking: true, position: -1, loaded: true, hasNextPage: true, isError: false };
  it('follows the pages until the target is found, missing or a page fails', () => {
    expect(seekState({ ...base, seeking: false })).toBe('none');
    expect(seekState(base)).toBe('loading');
    expect(seekState({ ...base, loaded: false })).toBe('loading');
    expect(seekState({ ...base, position: 0 })).toBe('found');
    expect(seekState({ ...base, hasNextPage: false })).toBe('missing');
    expect(seekState({ ...base, isError: true })).toBe('failed');
  });
});

describe('withTopIndex', () => {
  it('names the top item, drops the video and keeps the rest', () => {
    expect(withTopIndex(`?v=${VIDEO}`, 42)).toBe('?index=42');
    expect(withTopIndex('?index=42&si=x', 1)).toBe('?si=x');
    expect(withTopIndex('', 1)).toBe('');
    expect(withTopIndex('?si=x&index=3', 7)).toBe('?si=x&index=7');
  });
});
