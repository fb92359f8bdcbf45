import type { Thumbnail } from '../shared/catalogue-schema.ts';
import { hashString } from './random.ts';

// Thumbnails the service draws itself, so that the demo displays without internet access.
// URLs keep the real shape (spec §2.5): several sizes per item, a path per video or playlist
// and a long query string; the query is decoration and is ignored when drawing.

export const THUMBNAIL_PATH_PREFIX = '/thumbnails';

/** The sizes the real service sends, largest first. */
const SIZES: Array<{ name: string; width: number; height: number }> = [
  { name: 'hqdefault', width: 336, height: 188 },
  { name: 'mqdefault', width: 246, height: 138 },
  { name: 'sddefault', width: 196, height: 110 },
  { name: 'default', width: 168, height: 94 },
];

export type ThumbnailKind = 'vi' | 'pl';

export function thumbnailsFor(baseUrl: string, kind: ThumbnailKind, id: string): Thumbnail[] {
  const token = hashString(id).toString(36);
  return SIZES.map(({ name, width, height }) => ({
    url: `${baseUrl}${THUMBNAIL_PATH_PREFIX}/${kind}/${id}/${name}.svg?sqp=-oaymwE${token}CNACELwBSFXyq4qpAw&rs=AOn4CL${token}`,
    width,
    height,
  }));
}

const PATH =
  /^\/thumbnails\/(vi|pl)\/([A-Za-z0-9_-]{1,80})\/(hqdefault|mqdefault|sddefault|default)\.svg$/;

/** The SVG for a thumbnail path, or null when the path is not one this service hands out. */
export function renderThumbnail(pathname: string): string | null {
  const match = PATH.exec(pathname);
  if (!match) return null;
  const [, kind, id, name] = match as unknown as [string, ThumbnailKind, string, string];
  const size = SIZES.find((s) => s.name === name) ?? SIZES[0]!;
  const hash = hashString(id);
  const hue = hash % 360;
  const hue2 = (hue + 40 + ((hash >>> 9) % 80)) % 360;
  const { width: w, height: h } = size;
  const cx = ((hash >>> 3) % 60) + 20;
  const cy = ((hash >>> 11) % 50) + 25;
  // A playlist thumbnail carries the platform's "stack" stripe on the right.
  const stack =
    kind === 'pl'
      ? `<rect x="${w * 0.62}" y="0" width="${w * 0.38}" height="${h}" fill="#000" fill-opacity=".55"/>` +
        [0.35, 0.5, 0.65]
          .map(
            (y) =>
              `<rect x="${w * 0.72}" y="${h * y - 2}" width="${w * 0.18}" height="4" rx="2" fill="#fff" fill-opacity=".85"/>`,
          )
          .join('')
      : `<circle cx="${w / 2}" cy="${h / 2}" r="${h * 0.16}" fill="#000" fill-opacity=".35"/><path d="M${w / 2 - h * 0.05} ${h / 2 - h * 0.08}v${h * 0.16}l${h * 0.13}-${h * 0.08}z" fill="#fff"/>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">` +
    `<stop offset="0" stop-color="hsl(${hue} 70% 55%)"/><stop offset="1" stop-color="hsl(${hue2} 65% 30%)"/>` +
    `</linearGradient></defs>` +
    `<rect width="${w}" height="${h}" fill="url(#g)"/>` +
    `<circle cx="${(cx / 100) * w}" cy="${(cy / 100) * h}" r="${h * 0.45}" fill="#fff" fill-opacity=".12"/>` +
    stack +
    `</svg>`
  );
}
