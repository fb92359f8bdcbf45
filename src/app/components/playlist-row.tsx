import { memo } from 'react';
import { Link } from 'react-router';
import { useOwnLinkTarget } from '../lib/link-target.ts';
import { channelPath } from '../../shared/app-routes.ts';
import type { PlaylistItem } from '../../shared/catalogue-schema.ts';
import { useTranslation } from '../i18n/use-translation.ts';
import { watchUrl } from '../../shared/platform-links.ts';
import { WatchedToggle } from '../progress/watched-toggle.tsx';
import { DurationBadge } from './duration-badge.tsx';
import { PlatformLink } from './external-mark.tsx';
import { ROW_TITLE_LINK } from './row-layout.tsx';
import { ThumbnailImage } from './thumbnail-image.tsx';
import { cx } from './ui/class-names.ts';
import { FOCUS_RING } from './ui/focus-ring.ts';
import type { RowSize } from './window-list.tsx';

/** Fixed heights keep the virtual list exact: [phone, from the sm breakpoint]. */
export const PLAYLIST_ROW_SIZE: RowSize = { narrow: 88, wide: 112, className: 'h-22 sm:h-28' };
const THUMB_WIDTH = { narrow: 112, wide: 160 } as const;

interface PlaylistRowProps {
  item: PlaylistItem;
  playlistId: string;
  /** The item a deep link (`?index=N`) pointed at. */
  isTarget: boolean;
  /** Among the first EAGER_ROWS (row-layout.tsx). */
  eager: boolean;
  /** Marked as watched (progress/); with onToggleWatched, the row shows its toggle. */
  watched?: boolean;
  onToggleWatched?: (position: number) => void;
  onOpen?: (position: number) => void;
}

// Memoized: a page arriving or a scroll frame re-renders the list, not the rows on screen.
export const PlaylistRow = memo(function PlaylistRow({
  item,
  playlistId,
  isTarget,
  eager,
  watched = false,
  onToggleWatched,
  onOpen,
}: PlaylistRowProps) {
  const linkTarget = useOwnLinkTarget();
  const { t, formatCount } = useTranslation();
  return (
    <div
      className={`relative flex h-full items-center gap-2 rounded-lg px-1 sm:gap-3 sm:px-2 ${
        isTarget
          ? 'bg-amber-100 ring-2 ring-amber-500 ring-inset dark:bg-amber-950'
          : 'hover:bg-zinc-100 dark:hover:bg-zinc-900'
      }`}
      aria-current={isTarget ? 'true' : undefined}
    >
      <span className="w-9 shrink-0 text-end text-xs tabular-nums text-zinc-600 sm:w-12 sm:text-sm dark:text-zinc-400">
        {formatCount(item.index)}
      </span>
      <ThumbnailImage
        thumbnails={item.thumbnails}
        cssWidth={THUMB_WIDTH}
        alt=""
        className="w-28 sm:w-40"
        eager={eager}
      >
        <DurationBadge seconds={item.duration} />
      </ThumbnailImage>
      <div className="min-w-0 flex-1">
        <PlatformLink
          href={watchUrl(item.id, playlistId, item.index)}
          className={ROW_TITLE_LINK}
          onOpen={onOpen && (() => onOpen(item.index))}
        >
          <bdi>{item.title}</bdi>
        </PlatformLink>
        <Link
          to={channelPath(item.channelId)}
          {...linkTarget}
          className={cx(
            'relative z-10 block truncate py-1 text-xs text-zinc-700 sm:py-0.5 hover:underline sm:text-sm dark:text-zinc-300',
            FOCUS_RING,
          )}
        >
          <bdi>{item.channelTitle}</bdi>
        </Link>
        <p className="truncate text-xs text-zinc-600 sm:text-sm dark:text-zinc-400">
          {/* The service's own words, each isolated: "64 views" keeps its order on a right-to-left page. */}
          <bdi>{item.viewsText}</bdi>
          {item.publishedText ? (
            <>
              {' · '}
              <bdi>{item.publishedText}</bdi>
            </>
          ) : null}
        </p>
      </div>
      {onToggleWatched ? (
        <WatchedToggle
          pressed={watched}
          label={t('progress.mark.toggle', { position: formatCount(item.index) })}
          onToggle={() => onToggleWatched(item.index)}
        />
      ) : null}
    </div>
  );
});
