import { hashString } from './random.ts';

// The demo's thumbnail art: a gradient and a soft disc in colours drawn from the ID, with a
// play mark on a video and the platform's "stack" stripe on a playlist. Drawn as SVG at the
// size asked for; thumbnail-files.ts turns it into the JPEG that is served.

export type ThumbnailKind = 'vi' | 'pl';

/** The SVG of `kind`'s thumbnail of `id`, `w`×`h` pixels (16:9 in every size served). */
export function thumbnailSvg(kind: ThumbnailKind, id: string, w: number, h: number): string {
  const hash = hashString(id);
  const hue = hash % 360;
  const hue2 = (hue + 40 + ((hash >>> 9) % 80)) % 360;
  const cx = ((hash >>> 3) % 60) + 20;
  const cy = ((hash >>> 11) % 50) + 25;
  // The stripes keep the listed sizes' width and grow with the larger fixed names.
  const bar = Math.max(4, h / 47);
  const stack =
    kind === 'pl'
      ? `<rect x="${w * 0.62}" y="0" width="${w * 0.38}" height="${h}" fill="#000" fill-opacity=".55"/>` +
        [0.35, 0.5, 0.65]
          .map(
            (y) =>
              `<rect x="${w * 0.72}" y="${h * y - bar / 2}" width="${w * 0.18}" height="${bar}" rx="${bar / 2}" fill="#fff" fill-opacity=".85"/>`,
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
