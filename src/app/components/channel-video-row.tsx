import { memo } from 'react';
import type { ChannelVideo } from '../../shared/catalogue-schema.ts';
import { useTranslation } from '../i18n/use-translation.ts';
import { watchUrl } from '../../shared/platform-links.ts';
import { DurationBadge } from './duration-badge.tsx';
import { PlatformLink } from './external-mark.tsx';
import { ROW_TITLE_LINK, ThumbnailRow } from './row-layout.tsx';
import type { RowSize } from './window-list.tsx';

export const CHANNEL_VIDEO_ROW_SIZE: RowSize = {
  narrow: 96,
  wide: 128,
  className: 'h-24 sm:h-32',
};
const THUMB_WIDTH = { narrow: 112, wide: 192 } as const;

// Memoized: a page arriving or a scroll frame re-renders the list, not the rows on screen.
export const ChannelVideoRow = memo(function ChannelVideoRow({
  video,
  eager,
}: {
  video: ChannelVideo;
  /** Among the first EAGER_ROWS (row-layout.tsx). */
  eager: boolean;
}) {
  const { t, formatCompact } = useTranslation();
  const views = video.viewCount;
  return (
    <ThumbnailRow
      thumbnails={video.thumbnails}
      eager={eager}
      thumbWidth={THUMB_WIDTH}
      thumbClassName="w-28 sm:w-48"
      badge={<DurationBadge seconds={video.duration} />}
    >
      <PlatformLink href={watchUrl(video.id)} className={ROW_TITLE_LINK}>
        <bdi>{video.title}</bdi>
      </PlatformLink>
      <p className="truncate text-xs text-zinc-600 sm:text-sm dark:text-zinc-400">
        <span title={t('list.viewCount', { count: views })}>
          {t('row.viewCountCompact', { count: views, compact: formatCompact(views) })}
        </span>
        {video.publishedText !== null && (
          <>
            {' · '}
            <bdi>{video.publishedText}</bdi>
          </>
        )}
      </p>
      <p
        dir="auto"
        className="line-clamp-1 text-xs leading-5 text-zinc-600 sm:line-clamp-2 sm:text-sm dark:text-zinc-400"
      >
        {video.descriptionSnippet}
      </p>
    </ThumbnailRow>
  );
});
