import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { createThumbnailFiles, THUMBNAIL_FILES_VERSION } from './thumbnail-files.ts';
import { LISTED_SIZES, NAMED_SIZES, type ThumbnailRequest } from './thumbnails.ts';

// The images as a browser gets them: decoded back by libvips, their sizes and pixels checked.

const dataDir = mkdtempSync(join(tmpdir(), 'thumbnail-files-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const KNOWN = new Set([
  'vi:dQw4w9WgXcQ',
  'vi:DQW4W9WGXCQ',
  'pl:PLcatalogueDemoPlaylist0101items00',
]);
const files = createThumbnailFiles({ dataDir, has: (kind, id) => KNOWN.has(`${kind}:${id}`) });
const video = (size: ThumbnailRequest['size'], id = 'dQw4w9WgXcQ'): ThumbnailRequest => ({
  kind: 'vi',
  id,
  size,
});

describe('thumbnail files', () => {
  it('are JPEGs of the size their URL states, a few kB each', async () => {
    for (const size of [...LISTED_SIZES, ...Object.values(NAMED_SIZES)]) {
      const bytes = (await files.read(video(size)))!;
      const meta = await sharp(bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', size.width, size.height]);
      expect(meta.isProgressive).toBe(false);
      // Flat art compresses well: a few kB for the listed sizes, under 20 kB for the largest.
      expect(bytes.length).toBeLessThan(LISTED_SIZES.includes(size) ? 4096 : 20_480);
    }
  });

  it('letterbox the 4:3 names: black bars above and below the 16:9 picture', async () => {
    const bytes = (await files.read(video(NAMED_SIZES.hqdefault)))!;
    const { data, info } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => {
      const at = (y * info.width + x) * info.channels;
      return [data[at]!, data[at + 1]!, data[at + 2]!];
    };
    const dark = ([r, g, b]: number[]) => r! + g! + b! < 30;
    // 480×360 holds a 480×270 picture: bars of 45 px.
    for (const x of [10, 240, 470]) {
      expect(dark(pixel(x, 20)) && dark(pixel(x, 340)), `x ${x}`).toBe(true);
      expect(dark(pixel(x, 60)), `x ${x}`).toBe(false);
    }
  });

  it('are made once and then read from their folder', async () => {
    const request = video(LISTED_SIZES[0]!);
    const first = await files.read(request);
    const folder = join(dataDir, `thumbnails-v${THUMBNAIL_FILES_VERSION}`, 'vi');
    const [stored] = readdirSync(folder, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name === '336x188.jpg')
      .map((e) => join(e.parentPath, e.name));
    const written = statSync(stored!).mtimeMs;
    // Another process over the same folder, which knows no video: it can only read the file.
    const reader = createThumbnailFiles({ dataDir, has: () => false });
    expect(await reader.read(request)).toEqual(first);
    expect(await files.read(request)).toEqual(first);
    expect(statSync(stored!).mtimeMs).toBe(written);
  });

  it('make an image asked for many times at once once', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'thumbnail-files-'));
    try {
      const many = createThumbnailFiles({ dataDir: fresh, has: () => true });
      const answers = await Promise.all(
        Array.from({ length: 8 }, () => many.read(video(NAMED_SIZES.sddefault))),
      );
      expect(new Set(answers.map((a) => a?.toString('base64'))).size).toBe(1);
      const left = readdirSync(fresh, { recursive: true }).map(String);
      expect(left.filter((name) => name.endsWith('.jpg'))).toHaveLength(1);
      expect(left.filter((name) => name.endsWith('.tmp'))).toHaveLength(0);
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('differ by ID, also by case alone, and exist only for what the catalogue has', async () => {
    const size = LISTED_SIZES[3]!;
    const lower = await files.read(video(size));
    const upper = await files.read(video(size, 'DQW4W9WGXCQ'));
    expect(upper).not.toEqual(lower);
    expect(await files.read(video(size))).toEqual(lower);
    const playlist = await files.read({
      kind: 'pl',
      id: 'PLcatalogueDemoPlaylist0101items00',
      size,
    });
    expect(playlist).not.toEqual(lower);
    expect(await files.read(video(size, 'xxxxxxxxxxx'))).toBeNull();
    expect(await files.read({ kind: 'pl', id: 'dQw4w9WgXcQ', size })).toBeNull();
  });
});
