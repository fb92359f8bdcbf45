import type { Thumbnail } from '../../shared/catalogue-schema.ts';

// Thumbnails come in several sizes per item (spec §2.5); the app loads the smallest that
// still covers the box it is shown in at the screen's pixel density, to spare the bandwidth.

/** The smallest thumbnail at least `cssWidth × dpr` wide, else the widest; null when none. */
export function pickThumbnail(
  thumbnails: readonly Thumbnail[],
  cssWidth: number,
  dpr = 1,
): Thumbnail | null {
  if (thumbnails.length === 0) return null;
  const needed = cssWidth * Math.max(1, dpr);
  const byWidth = [...thumbnails].sort((a, b) => a.width - b.width);
  return byWidth.find((t) => t.width >= needed) ?? byWidth[byWidth.length - 1]!;
}

/** A `srcset` with width descriptors, so the browser can choose again when zooming. */
export function thumbnailSrcSet(thumbnails: readonly Thumbnail[]): string | undefined {
  const usable = thumbnails.filter((t) => t.width > 0);
  if (usable.length < 2) return undefined;
  const seen = new Set<number>();
  return [...usable]
    .sort((a, b) => a.width - b.width)
    .filter((t) => (seen.has(t.width) ? false : (seen.add(t.width), true)))
    .map((t) => `${t.url.replaceAll(' ', '%20').replaceAll(',', '%2C')} ${t.width}w`)
    .join(', ');
}
