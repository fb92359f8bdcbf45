import type { ReactNode } from 'react';
import type { Thumbnail } from '../../shared/catalogue-schema.ts';
import { pickThumbnail, thumbnailSrcSet } from '../lib/thumbnails.ts';

interface ThumbnailImageProps {
  thumbnails: readonly Thumbnail[];
  /** Width of the box in CSS pixels; the image is chosen for it at the screen's density. */
  cssWidth: number;
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
  const chosen = pickThumbnail(thumbnails, cssWidth, window.devicePixelRatio);
  const srcSet = thumbnailSrcSet(thumbnails);
  return (
    <div
      className={`relative aspect-video shrink-0 overflow-hidden rounded-lg bg-zinc-200 dark:bg-zinc-800 ${className}`}
    >
      {chosen && (
        <img
          src={chosen.url}
          srcSet={srcSet}
          sizes={srcSet ? `${cssWidth}px` : undefined}
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
