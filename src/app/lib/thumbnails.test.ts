import { describe, expect, it } from 'vitest';
import { pickThumbnail, thumbnailSrcSet } from './thumbnails.ts';

const sizes = [
  { url: '/t/hqdefault.jpg?sqp=a&rs=1', width: 336, height: 188 },
  { url: '/t/hqdefault.jpg?sqp=b', width: 246, height: 138 },
  { url: '/t/hqdefault.jpg?sqp=c', width: 196, height: 110 },
  { url: '/t/hqdefault.jpg?sqp=d', width: 168, height: 94 },
];

describe('pickThumbnail', () => {
  it('takes the smallest image that covers the box at the screen’s density', () => {
    expect(pickThumbnail(sizes, 160, 1)?.width).toBe(168);
    expect(pickThumbnail(sizes, 112, 2)?.width).toBe(246);
    expect(pickThumbnail(sizes, 160, 2)?.width).toBe(336);
    expect(pickThumbnail(sizes, 192, 1)?.width).toBe(196);
  });

  it('falls back to the widest when none is wide enough, and copes with odd input', () => {
    expect(pickThumbnail(sizes, 320, 3)?.width).toBe(336);
    expect(pickThumbnail([], 100, 1)).toBeNull();
    expect(pickThumbnail(sizes, 100, 0)?.width).toBe(168);
  });

  it('does not reorder its input', () => {
    const copy = [...sizes];
    pickThumbnail(sizes, 100, 1);
    expect(sizes).toEqual(copy);
  });
});

describe('thumbnailSrcSet', () => {
  it('lists each width once, narrowest first', () => {
    expect(thumbnailSrcSet(sizes)).toBe(
      '/t/hqdefault.jpg?sqp=d 168w, /t/hqdefault.jpg?sqp=c 196w, /t/hqdefault.jpg?sqp=b 246w, /t/hqdefault.jpg?sqp=a&rs=1 336w',
    );
    expect(thumbnailSrcSet([sizes[0]!])).toBeUndefined();
  });

  it('escapes characters that separate srcset candidates', () => {
    expect(thumbnailSrcSet([{ url: '/a b,c.jpg', width: 1, height: 1 }, sizes[3]!])).toBe(
      '/a%20b%2Cc.jpg 1w, /t/hqdefault.jpg?sqp=d 168w',
    );
  });
});
