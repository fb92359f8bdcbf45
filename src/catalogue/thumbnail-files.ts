import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type sharp from 'sharp';
import { thumbnailSvg, type ThumbnailKind } from './thumbnail-art.ts';
import type { ThumbnailRequest, ThumbnailSize } from './thumbnails.ts';

// The catalogue's thumbnails as JPEG files, like the real image host's: each is drawn
// (thumbnail-art.ts) and encoded once, with sharp (libvips), the first time it is asked for, then
// kept in a folder beside the database and read from there ever after; no request re-encodes.
// Only the images of videos and playlists in the catalogue are made, so the folder is bounded
// by the catalogue (at most 9 sizes each), whatever URLs anyone makes up.

/** Bump when the art or the encoding changes: a new folder, so no old image is served. */
export const THUMBNAIL_FILES_VERSION = 1;

/** Small and plain: baseline (no progressive passes to decode), Huffman tables fitted. */
const JPEG = { quality: 80, progressive: false, optimiseCoding: true } as const;

export interface ThumbnailFiles {
  /** The image's JPEG bytes, or null for one this catalogue does not have. */
  read(request: ThumbnailRequest): Promise<Buffer | null>;
}

export interface ThumbnailFilesOptions {
  /** The data folder (CATALOGUE_DATA_DIR); the images go in a folder of their own inside it. */
  dataDir: string;
  /** Whether the catalogue has the video (`vi`) or playlist (`pl`). */
  has(kind: ThumbnailKind, id: string): boolean;
}

type Sharp = typeof sharp;
let sharpLoaded: Promise<Sharp> | undefined;

/** Loaded on the first image made, so a process that only reads files never loads libvips. */
function loadSharp(): Promise<Sharp> {
  sharpLoaded ??= import('sharp').then(({ default: loaded }) => {
    // Each image is a few kB and made once: libvips' cache of operations would only hold memory.
    loaded.cache(false);
    return loaded;
  });
  return sharpLoaded;
}

/** Draws and encodes one image. */
export async function encodeThumbnail(
  kind: ThumbnailKind,
  id: string,
  size: ThumbnailSize,
): Promise<Buffer> {
  const sharp = await loadSharp();
  const { width, height } = size;
  // A letterboxed image holds the 16:9 picture at its full width, between black bars.
  const pictureHeight = size.letterboxed ? Math.round((width * 9) / 16) : height;
  const bars = height - pictureHeight;
  let image = sharp(Buffer.from(thumbnailSvg(kind, id, width, pictureHeight)));
  if (bars > 0) {
    image = image.extend({
      top: Math.floor(bars / 2),
      bottom: Math.ceil(bars / 2),
      background: '#000',
    });
  }
  return image.jpeg(JPEG).toBuffer();
}

export function createThumbnailFiles(options: ThumbnailFilesOptions): ThumbnailFiles {
  const folder = join(options.dataDir, `thumbnails-v${THUMBNAIL_FILES_VERSION}`);
  /** Images being made, so that requests arriving together make each once. */
  const making = new Map<string, Promise<Buffer>>();
  let temporaries = 0;

  async function make(path: string, { kind, id, size }: ThumbnailRequest): Promise<Buffer> {
    const bytes = await encodeThumbnail(kind, id, size);
    // Written aside and renamed, so that another process (or a crash) never sees half a file;
    // two processes making the same image write the same bytes.
    const temporary = `${path}.${process.pid}.${++temporaries}.tmp`;
    try {
      await mkdir(dirname(path), { recursive: true });
      await writeFile(temporary, bytes);
      await rename(temporary, path);
    } finally {
      await rm(temporary, { force: true });
    }
    return bytes;
  }

  return {
    async read(request) {
      const { kind, id, size } = request;
      // IDs differ by case alone, and some file systems do not: the folder is the ID in hex.
      const path = join(
        folder,
        kind,
        Buffer.from(id).toString('hex'),
        `${size.width}x${size.height}.jpg`,
      );
      try {
        return await readFile(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
      if (!options.has(kind, id)) return null;
      let made = making.get(path);
      if (made === undefined) {
        made = make(path, request).finally(() => making.delete(path));
        making.set(path, made);
      }
      return made;
    },
  };
}
