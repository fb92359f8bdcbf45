import type { Thumbnail } from '../shared/catalogue-schema.ts';
import { hashString } from './random.ts';
import type { ThumbnailKind } from './thumbnail-art.ts';

// Thumbnail URLs in the real service's shapes (spec §2.5). A page lists one image in four
// 16:9 sizes, largest first, as `…/vi/<id>/hqdefault.jpg?sqp=…&rs=…`: the four differ only in
// `sqp`, which names the size the image host scales to (below), and `rs`, its signature. The
// image host's fixed names are served too (`default.jpg` 120×90 to `maxresdefault.jpg`
// 1280×720, the 4:3 ones letterboxed as the real ones are), for link previews and share cards.
// A playlist's images are its own, under `pl/` (the real service shows its first video's).

export type { ThumbnailKind } from './thumbnail-art.ts';

export const THUMBNAIL_PATH_PREFIX = '/thumbnails';

export interface ThumbnailSize {
  width: number;
  height: number;
  /** The 16:9 picture between black bars, filling a 4:3 image. */
  letterboxed: boolean;
}

/** The sizes a page lists, largest first: those of the real service's pages. */
export const LISTED_SIZES: readonly ThumbnailSize[] = [
  { width: 336, height: 188, letterboxed: false },
  { width: 246, height: 138, letterboxed: false },
  { width: 196, height: 110, letterboxed: false },
  { width: 168, height: 94, letterboxed: false },
];

/** The image host's fixed names and their sizes. */
export const NAMED_SIZES = {
  default: { width: 120, height: 90, letterboxed: true },
  mqdefault: { width: 320, height: 180, letterboxed: false },
  hqdefault: { width: 480, height: 360, letterboxed: true },
  sddefault: { width: 640, height: 480, letterboxed: true },
  maxresdefault: { width: 1280, height: 720, letterboxed: false },
} as const satisfies Record<string, ThumbnailSize>;

export type ThumbnailName = keyof typeof NAMED_SIZES;

/** The image the listed sizes are scaled from, as at the real service. */
const LISTED_NAME: ThumbnailName = 'hqdefault';

const varint = (n: number): number[] => {
  const bytes: number[] = [];
  for (; n > 0x7f; n >>>= 7) bytes.push((n & 0x7f) | 0x80);
  bytes.push(n);
  return bytes;
};

/**
 * The real service's `sqp` for a size: URL-safe base64 of a protobuf message whose fields 1 and
 * 2 are the width and height (the rest as the real ones have it). The sizes of LISTED_SIZES
 * give the very strings the real service sends.
 */
export function sqpFor(width: number, height: number): string {
  const body = [
    ...[0x08, ...varint(width), 0x10, ...varint(height)],
    ...[0x48, 0x5a, 0xf2, 0xab, 0x8a, 0xa9, 0x03, 0x09, 0x08, 0x01, 0x15, 0x00, 0x00, 0x88],
    ...[0x42, 0x18, 0x01],
  ];
  const message = Buffer.from([0xfa, 0x86, 0xb2, 0x9b, 0x01, body.length, ...body]);
  return message.toString('base64').replaceAll('+', '-').replaceAll('/', '_');
}

const LISTED_BY_SQP = new Map(LISTED_SIZES.map((size) => [sqpFor(size.width, size.height), size]));

export function thumbnailsFor(baseUrl: string, kind: ThumbnailKind, id: string): Thumbnail[] {
  // `rs` only imitates the real signature: nothing checks it.
  const rs = `AOn4CL${hashString(id).toString(36)}`;
  return LISTED_SIZES.map(({ width, height }) => ({
    url: `${baseUrl}${THUMBNAIL_PATH_PREFIX}/${kind}/${id}/${LISTED_NAME}.jpg?sqp=${sqpFor(width, height)}&rs=${rs}`,
    width,
    height,
  }));
}

/** One image this service may serve: whose, and at which size. */
export interface ThumbnailRequest {
  kind: ThumbnailKind;
  id: string;
  size: ThumbnailSize;
}

const PATH = new RegExp(
  `^${THUMBNAIL_PATH_PREFIX}/(vi|pl)/([A-Za-z0-9_-]{1,80})/(${Object.keys(NAMED_SIZES).join('|')})\\.jpg$`,
);

/**
 * The image a thumbnail URL names (its path, and its `sqp` if any), or null when it is not one
 * this service hands out: an unknown name or `sqp` is a 404, as a size never listed would be.
 */
export function parseThumbnailRequest(
  pathname: string,
  sqp: string | undefined,
): ThumbnailRequest | null {
  const match = PATH.exec(pathname);
  if (!match) return null;
  const [, kind, id, name] = match as unknown as [string, ThumbnailKind, string, ThumbnailName];
  if (sqp === undefined) return { kind, id, size: NAMED_SIZES[name] };
  const size = name === LISTED_NAME ? LISTED_BY_SQP.get(sqp) : undefined;
  return size === undefined ? null : { kind, id, size };
}
