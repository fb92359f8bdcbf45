import { memo } from 'react';
import { Link } from 'react-router';
import type { ChannelPlaylist } from '../../shared/catalogue-schema.ts';
import { plural } from '../lib/format.ts';
import { ThumbnailImage } from './thumbnail-image.tsx';

export const CHANNEL_PLAYLIST_ROW_HEIGHT = { narrow: 84, wide: 112 } as const;
const THUMB_WIDTH = { narrow: 112, wide: 160 } as const;

/** A channel's playlist; it opens the explorer's own playlist view. */
// Memoized: a page arriving or a scroll frame re-renders the list, not the rows on screen.
export const ChannelPlaylistRow = memo(function ChannelPlaylistRow({
  playlist,
  wide,
}: {
  playlist: ChannelPlaylist;
  wide: boolean;
}) {
  return (
    <div className="relative flex h-full items-center gap-3 rounded-lg px-1 hover:bg-zinc-100 sm:px-2 has-[a:focus-visible]:ring-2 has-[a:focus-visible]:ring-blue-600 dark:hover:bg-zinc-900">
      <ThumbnailImage
        thumbnails={playlist.thumbnails}
        cssWidth={THUMB_WIDTH[wide ? 'wide' : 'narrow']}
        alt=""
        className="w-28 sm:w-40"
      />
      <div className="min-w-0 flex-1">
        <Link
          to={`/playlist/${encodeURIComponent(playlist.id)}`}
          className="line-clamp-2 text-sm font-medium text-zinc-900 outline-none after:absolute after:inset-0 after:content-[''] sm:text-base dark:text-zinc-50"
        >
          {playlist.title}
        </Link>
        <p className="text-xs text-zinc-600 sm:text-sm dark:text-zinc-400">
          {plural(playlist.videoCount, 'video', 'videos')}
        </p>
      </div>
    </div>
  );
});
