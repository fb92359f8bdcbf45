import type { ReactNode } from 'react';
import type { Thumbnail } from '../../shared/catalogue-schema.ts';
import { pickThumbnail, thumbnailSrcSet } from '../lib/thumbnails.ts';

interface ThumbnailImageProps {
  thumbnails: readonly Thumbnail[];
  /**
   * Width of the box in CSS pixels, or its widths below and from the `sm` breakpoint. The
   * browser picks the image from `srcset` for the screen's density, so the markup is the same
   * on the server and on every screen.
   */
  cssWidth: number | { narrow: number; wide: number };
  alt: string;
  /** Sets the box's width; its height follows from the 16:9 ratio. */
  className?: string;
  eager?: boolean;
  children?: ReactNode;
}

/** A 16:9 box that holds its size before the image arrives, so nothing below it shifts. */
export function ThumbnailImage({
  thumbnails,
  cssWidth,
  alt,
  className = '',
  eager = false,
  children,
}: ThumbnailImageProps) {
  const widest = typeof cssWidth === 'number' ? cssWidth : cssWidth.wide;
  const chosen = pickThumbnail(thumbnails, widest);
  const srcSet = thumbnailSrcSet(thumbnails);
  const sizes =
    typeof cssWidth === 'number'
      ? `${cssWidth}px`
      : `(min-width: 40rem) ${cssWidth.wide}px, ${cssWidth.narrow}px`;
  return (
    <div
      className={`relative aspect-video shrink-0 overflow-hidden rounded-lg bg-zinc-200 dark:bg-zinc-800 ${className}`}
    >
      {chosen && (
        <img
          src={chosen.url}
          srcSet={srcSet}
          sizes={srcSet ? sizes : undefined}
          width={chosen.width}
          height={chosen.height}
          alt={alt}
          loading={eager ? 'eager' : 'lazy'}
          decoding="async"
          className="h-full w-full object-cover"
        />
      )}
      {children}
    </div>
  );
}
