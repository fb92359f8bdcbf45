import { useCallback, useState, type ReactNode } from 'react';
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
  /**
   * The view's largest image, likely its largest paint: fetched before the other images the
   * document names (Lighthouse's LCP discovery asks for it).
   */
  urgent?: boolean;
  children?: ReactNode;
}

/**
 * A 16:9 box that holds its size before the image arrives, so nothing below it shifts. An
 * image that cannot be had (offline, blocked, gone) leaves the box with a quiet picture mark
 * instead of the browser's broken-image icon and its alt text spilling over the box; the alt
 * text stays for screen readers.
 */
export function ThumbnailImage({
  thumbnails,
  cssWidth,
  alt,
  className = '',
  eager = false,
  urgent = false,
  children,
}: ThumbnailImageProps) {
  const [failed, setFailed] = useState(false);
  // An image may fail before the app hydrates the server's markup, when no handler listened.
  const checkLoaded = useCallback((image: HTMLImageElement | null) => {
    if (image?.complete && image.naturalWidth === 0 && image.currentSrc !== '') setFailed(true);
    // A row that leaves the window before its thumbnail arrives stops asking for it: a fling
    // past thousands of rows would otherwise leave as many requests queued for images nobody
    // sees, each keeping its detached element (and the row around it) alive until it ends.
    return () => {
      if (image && !image.complete) {
        image.removeAttribute('srcset');
        image.removeAttribute('src');
      }
    };
  }, []);
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
      {chosen && failed && (
        <div
          role={alt ? 'img' : undefined}
          aria-label={alt || undefined}
          className="flex h-full w-full items-center justify-center text-zinc-400 dark:text-zinc-600"
        >
          <svg viewBox="0 0 24 24" aria-hidden="true" className="size-1/4 max-h-10 fill-current">
            <path d="M4 5h16a1 1 0 0 1 1 1v12a1 1 0 0 1-1 1H4a1 1 0 0 1-1-1V6a1 1 0 0 1 1-1Zm1 2v8.6l3.3-3.3a1 1 0 0 1 1.4 0l2.3 2.3 3.3-3.3a1 1 0 0 1 1.4 0L19 13.6V7H5Zm4 3.5a1.5 1.5 0 1 1 0-3 1.5 1.5 0 0 1 0 3Z" />
          </svg>
        </div>
      )}
      {chosen && !failed && (
        <img
          ref={checkLoaded}
          onError={() => setFailed(true)}
          src={chosen.url}
          srcSet={srcSet}
          sizes={srcSet ? sizes : undefined}
          width={chosen.width}
          height={chosen.height}
          alt={alt}
          loading={eager || urgent ? 'eager' : 'lazy'}
          fetchPriority={urgent ? 'high' : undefined}
          decoding="async"
          className="h-full w-full object-cover"
        />
      )}
      {children}
    </div>
  );
}
