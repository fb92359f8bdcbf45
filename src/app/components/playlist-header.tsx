import { useId, useState } from 'react';
import { FollowButton } from '../following/follow-button.tsx';
import { channelPath } from '../../shared/app-routes.ts';
import type { PlaylistInfo } from '../../shared/catalogue-schema.ts';
import { useTranslation } from '../i18n/use-translation.ts';
import { platformPlaylistUrl, safeExternalUrl } from '../../shared/platform-links.ts';
import { OpenOnPlatform } from './external-mark.tsx';
import { ThumbnailImage } from './thumbnail-image.tsx';
import { TextButton, TextLink } from './ui/text-link.tsx';

/** Long descriptions start folded to three lines. */
const FOLD_AFTER_CHARS = 180;

export function PlaylistHeader({ info }: { info: PlaylistInfo }) {
  const { t } = useTranslation();
  const [expanded, setExpanded] = useState(false);
  const descriptionId = useId();
  const foldable =
    info.description.length > FOLD_AFTER_CHARS || info.description.split('\n').length > 3;
  return (
    <header className="flex flex-col gap-4 py-5 sm:flex-row sm:gap-6">
      <ThumbnailImage
        thumbnails={info.thumbnails}
        cssWidth={{ narrow: 192, wide: 288 }}
        alt={t('playlist.header.thumbnailAlt', { title: info.title })}
        className="w-48 self-start sm:w-72"
        urgent
      />
      <div className="min-w-0 flex-1">
        <h1 className="text-xl font-bold break-words text-zinc-900 sm:text-2xl dark:text-zinc-50">
          <bdi>{info.title}</bdi>
        </h1>
        <p className="mt-1">
          <TextLink to={channelPath(info.channelId)} className="font-medium">
            <bdi>{info.channelTitle}</bdi>
          </TextLink>
        </p>
        <p className="mt-1 text-sm text-zinc-700 dark:text-zinc-300">
          {t('list.videoCount', { count: info.totalItems })} ·{' '}
          {t('list.viewCount', { count: info.views })}
          {/* The service's own words ("Updated 6 years ago"), isolated from the sentence. */}
          {info.lastUpdated ? (
            <>
              {' · '}
              <bdi>{info.lastUpdated}</bdi>
            </>
          ) : null}
        </p>
        {info.description && (
          <div className="mt-3 max-w-prose text-sm text-zinc-800 dark:text-zinc-200">
            <p
              id={descriptionId}
              dir="auto"
              className={`break-words whitespace-pre-line ${foldable && !expanded ? 'line-clamp-3' : ''}`}
            >
              {info.description}
            </p>
            {foldable && (
              <TextButton
                aria-expanded={expanded}
                aria-controls={descriptionId}
                onClick={() => setExpanded((e) => !e)}
                className="mt-1 rounded text-sm font-semibold"
              >
                {t(expanded ? 'playlist.header.showLess' : 'playlist.header.showMore')}
              </TextButton>
            )}
          </div>
        )}
        <p className="mt-3 text-sm">
          <OpenOnPlatform href={safeExternalUrl(info.url, platformPlaylistUrl(info.id))} />
          <FollowButton kind="playlist" id={info.id} title={info.title} />
        </p>
      </div>
    </header>
  );
}

/** Holds the header's place while the first page loads. */
export function PlaylistHeaderSkeleton() {
  const { t } = useTranslation();
  return (
    <>
      <h1 className="sr-only">{t('playlist.header.loading')}</h1>
      <div className="h-44 py-5 sm:h-52" aria-hidden="true">
        <div className="h-full w-72 max-w-full animate-pulse rounded-lg bg-zinc-200 dark:bg-zinc-800" />
      </div>
    </>
  );
}
