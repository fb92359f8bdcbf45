import { describe, expect, it } from 'vitest';
import {
  LISTED_SIZES,
  NAMED_SIZES,
  parseThumbnailRequest,
  sqpFor,
  thumbnailsFor,
} from './thumbnails.ts';

describe('thumbnail URLs', () => {
  it('carry the real service’s sqp for each listed size (spec §2.5)', () => {
    // From the provider's documented playlist example.
    expect(sqpFor(336, 188)).toBe('-oaymwEXCNACELwBSFryq4qpAwkIARUAAIhCGAE=');
    expect(sqpFor(246, 138)).toBe('-oaymwEXCPYBEIoBSFryq4qpAwkIARUAAIhCGAE=');
    expect(sqpFor(196, 110)).toBe('-oaymwEWCMQBEG5IWvKriqkDCQgBFQAAiEIYAQ==');
    expect(sqpFor(168, 94)).toBe('-oaymwEWCKgBEF5IWvKriqkDCQgBFQAAiEIYAQ==');
  });

  it('list four 16:9 sizes of hqdefault.jpg, largest first, each naming the size it serves', () => {
    const thumbnails = thumbnailsFor('', 'vi', 'dQw4w9WgXcQ');
    expect(thumbnails.map((t) => [t.width, t.height])).toEqual([
      [336, 188],
      [246, 138],
      [196, 110],
      [168, 94],
    ]);
    for (const thumbnail of thumbnails) {
      const url = new URL(thumbnail.url, 'http://catalogue.test');
      expect(url.pathname).toBe('/thumbnails/vi/dQw4w9WgXcQ/hqdefault.jpg');
      expect(url.searchParams.get('rs')).toMatch(/^AOn4CL/);
      const request = parseThumbnailRequest(url.pathname, url.searchParams.get('sqp') ?? undefined);
      expect(request).toEqual({
        kind: 'vi',
        id: 'dQw4w9WgXcQ',
        size: { width: thumbnail.width, height: thumbnail.height, letterboxed: false },
      });
    }
    expect(thumbnailsFor('https://c.test', 'pl', 'PLx')[0]?.url).toMatch(
      /^https:\/\/c\.test\/thumbnails\/pl\/PLx\/hqdefault\.jpg\?sqp=[\w=-]+&rs=AOn4CL\w+$/,
    );
    expect(LISTED_SIZES.every((s) => Math.abs(s.width / s.height - 16 / 9) < 0.02)).toBe(true);
  });

  it('serve the image host’s fixed names at their sizes, the 4:3 ones letterboxed', () => {
    const sizes = Object.keys(NAMED_SIZES).map(
      (name) => parseThumbnailRequest(`/thumbnails/pl/PLx/${name}.jpg`, undefined)?.size,
    );
    expect(sizes).toEqual([
      { width: 120, height: 90, letterboxed: true },
      { width: 320, height: 180, letterboxed: false },
      { width: 480, height: 360, letterboxed: true },
      { width: 640, height: 480, letterboxed: true },
      { width: 1280, height: 720, letterboxed: false },
    ]);
  });

  it('name nothing else', () => {
    const refused = [
      ['/thumbnails/vi/abc/hqdefault.svg', undefined],
      ['/thumbnails/vi/abc/huge.jpg', undefined],
      ['/thumbnails/xx/abc/default.jpg', undefined],
      ['/thumbnails/vi/../default.jpg', undefined],
      ['/thumbnails/vi/a.b/default.jpg', undefined],
      [`/thumbnails/vi/${'a'.repeat(81)}/default.jpg`, undefined],
      // A size never listed, or an sqp on another name.
      ['/thumbnails/vi/abc/hqdefault.jpg', sqpFor(1000, 1000)],
      ['/thumbnails/vi/abc/hqdefault.jpg', 'garbage'],
      ['/thumbnails/vi/abc/mqdefault.jpg', sqpFor(336, 188)],
    ] as const;
    for (const [path, sqp] of refused) expect(parseThumbnailRequest(path, sqp), path).toBeNull();
  });
});
