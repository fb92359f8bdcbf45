import { memo } from 'react';
import type { ChannelVideo } from '../../shared/catalogue-schema.ts';
import { formatCompact, formatCount } from '../lib/format.ts';
import { watchUrl } from '../lib/platform-links.ts';
import { DurationBadge } from './duration-badge.tsx';
import { NewTabNote } from './external-mark.tsx';
import { ThumbnailImage } from './thumbnail-image.tsx';

export const CHANNEL_VIDEO_ROW_HEIGHT = { narrow: 96, wide: 128 } as const;
const THUMB_WIDTH = { narrow: 112, wide: 192 } as const;

// Memoized: a page arriving or a scroll frame re-renders the list, not the rows on screen.
export const ChannelVideoRow = memo(function ChannelVideoRow({
  video,
  wide,
}: {
  video: ChannelVideo;
  wide: boolean;
}) {
  return (
    <div className="relative flex h-full items-center gap-3 rounded-lg px-1 hover:bg-zinc-100 sm:px-2 has-[a:focus-visible]:ring-2 has-[a:focus-visible]:ring-blue-600 dark:hover:bg-zinc-900">
      <ThumbnailImage
        thumbnails={video.thumbnails}
        cssWidth={THUMB_WIDTH[wide ? 'wide' : 'narrow']}
        alt=""
        className="w-28 sm:w-48"
      >
        <DurationBadge seconds={video.duration} />
      </ThumbnailImage>
      <div className="min-w-0 flex-1">
        <a
          href={watchUrl(video.id)}
          target="_blank"
          rel="noopener noreferrer"
          className="line-clamp-2 text-sm font-medium text-zinc-900 outline-none after:absolute after:inset-0 after:content-[''] sm:text-base dark:text-zinc-50"
        >
          {video.title}
          <NewTabNote />
        </a>
        <p className="truncate text-xs text-zinc-600 sm:text-sm dark:text-zinc-400">
          <span title={`${formatCount(video.viewCount)} views`}>
            {formatCompact(video.viewCount)} views
          </span>
          {video.publishedText !== null && ` · ${video.publishedText}`}
        </p>
        <p className="line-clamp-1 text-xs leading-5 text-zinc-600 sm:line-clamp-2 sm:text-sm dark:text-zinc-400">
          {video.descriptionSnippet}
        </p>
      </div>
    </div>
  );
});
