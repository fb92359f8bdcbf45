import type { ReactNode } from 'react';
import type { Thumbnail } from '../../shared/catalogue-schema.ts';
import { ThumbnailImage } from './thumbnail-image.tsx';

/**
 * Rows a list can show on screen when it opens at its top (rows of the shortest kind filling a
 * tall window): their images load at once, found by the preload scanner in the server's HTML;
 * the others' wait until they come near the viewport.
 */
export const EAGER_ROWS = 8;

/**
 * A row's title link; it stretches over the whole row, so the row is one click target. At least
 * WCAG 2.2's minimum target size tall, like every link in a row, so that a finger finds each. Its
 * stretched box draws the focus ring round the row: a `:has()` rule on the row would instead make
 * every row the browser adds while scrolling pay for a style check against its links.
 */
export const ROW_TITLE_LINK =
  "line-clamp-2 min-h-6 text-sm font-medium text-zinc-900 outline-none after:absolute after:inset-0 after:rounded-lg after:content-[''] focus-visible:after:ring-2 focus-visible:after:ring-blue-600 focus-visible:after:ring-inset sm:text-base dark:text-zinc-50";

/** A channel list's row: its thumbnail (with an optional badge), and its text beside it. */
export function ThumbnailRow({
  thumbnails,
  thumbWidth,
  thumbClassName,
  badge,
  eager,
  children,
}: {
  thumbnails: readonly Thumbnail[];
  /** The thumbnail's width in CSS pixels below and from the `sm` breakpoint. */
  thumbWidth: { narrow: number; wide: number };
  /** Sets the thumbnail box's width at each breakpoint. */
  thumbClassName: string;
  badge?: ReactNode;
  /** The row is among the first EAGER_ROWS. */
  eager: boolean;
  children: ReactNode;
}) {
  return (
    <div className="relative flex h-full items-center gap-3 rounded-lg px-1 hover:bg-zinc-100 sm:px-2 dark:hover:bg-zinc-900">
      <ThumbnailImage
        thumbnails={thumbnails}
        cssWidth={thumbWidth}
        alt=""
        className={thumbClassName}
        eager={eager}
      >
        {badge}
      </ThumbnailImage>
      <div className="min-w-0 flex-1">{children}</div>
    </div>
  );
}
