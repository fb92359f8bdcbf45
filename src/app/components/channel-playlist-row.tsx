import { memo } from 'react';
import { Link } from 'react-router';
import { useOwnLinkTarget } from '../lib/link-target.ts';
import { playlistPath } from '../../shared/app-routes.ts';
import type { ChannelPlaylist } from '../../shared/catalogue-schema.ts';
import { useTranslation } from '../i18n/use-translation.ts';
import { ROW_TITLE_LINK, ThumbnailRow } from './row-layout.tsx';
import type { RowSize } from './window-list.tsx';

export const CHANNEL_PLAYLIST_ROW_SIZE: RowSize = {
  narrow: 84,
  wide: 112,
  className: 'h-21 sm:h-28',
};
const THUMB_WIDTH = { narrow: 112, wide: 160 } as const;

/** A channel's playlist; it opens the explorer's own playlist view. */
// Memoized: a page arriving or a scroll frame re-renders the list, not the rows on screen.
export const ChannelPlaylistRow = memo(function ChannelPlaylistRow({
  playlist,
  eager,
}: {
  playlist: ChannelPlaylist;
  /** Among the first EAGER_ROWS (row-layout.tsx). */
  eager: boolean;
}) {
  const linkTarget = useOwnLinkTarget();
  const { t } = useTranslation();
  return (
    <ThumbnailRow
      thumbnails={playlist.thumbnails}
      eager={eager}
      thumbWidth={THUMB_WIDTH}
      thumbClassName="w-28 sm:w-40"
    >
      <Link to={playlistPath(playlist.id)} className={ROW_TITLE_LINK} {...linkTarget}>
        <bdi>{playlist.title}</bdi>
      </Link>
      <p className="text-xs text-zinc-600 sm:text-sm dark:text-zinc-400">
        {t('list.videoCount', { count: playlist.videoCount })}
      </p>
    </ThumbnailRow>
  );
});
