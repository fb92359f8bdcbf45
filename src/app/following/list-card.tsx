import { memo } from 'react';
import { Link } from 'react-router';
import { channelPath, playlistPath } from '../../shared/app-routes.ts';
import { cx } from '../components/ui/class-names.ts';
import { FOCUS_RING } from '../components/ui/focus-ring.ts';
import { useTranslation, type Translation } from '../i18n/use-translation.ts';
import { failureSentence } from '../lib/problem-text.ts';
import { follows, type FollowedList } from './follow-store.ts';
import type { FeedEntry, ListUpdate } from './list-updates.ts';
import type { Result } from './use-following-refresh.ts';

// One followed list in the Following view: its name, what changed since the last visit, what
// reading it cost, and its newest entries (new ones first, a few in all).

const SHOWN = 5;

// Memoized: a scroll redraws the virtual list on every frame, and a card whose list and result
// are the same objects has nothing new to draw.
export const ListCard = memo(function ListCard({
  list,
  result,
  held,
}: {
  list: FollowedList;
  result: Result | undefined;
  /** Not read yet, and not being read: the refresh waits for the reader's word. */
  held: boolean;
}) {
  const translation = useTranslation();
  const { t } = translation;
  const update = result?.state === 'done' ? result.update : null;
  const path = list.kind === 'playlist' ? playlistPath(list.id) : channelPath(list.id);
  const title = update?.title || list.title;
  return (
    <article
      aria-label={title}
      className="rounded-xl border border-zinc-200 p-4 dark:border-zinc-800"
    >
      <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
        <span className="text-xs font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-400">
          {t(list.kind === 'playlist' ? 'following.kind.playlist' : 'following.kind.channel')}
        </span>
        <Link
          to={path}
          className={cx(
            'min-w-0 font-semibold break-words text-blue-700 hover:underline dark:text-blue-400',
            FOCUS_RING,
          )}
        >
          <bdi>{title}</bdi>
        </Link>
        {update && <Counts update={update} kind={list.kind} translation={translation} />}
        {result?.state === 'done' && (
          <span className="text-xs text-zinc-600 dark:text-zinc-400">
            {t('following.listCost', { lookups: result.lookups })}
          </span>
        )}
        <button
          type="button"
          onClick={() => follows.remove(list)}
          aria-label={t('following.remove', { title })}
          className={cx(
            'ms-auto rounded px-2 text-zinc-600 hover:text-zinc-900 dark:text-zinc-400 dark:hover:text-zinc-100',
            FOCUS_RING,
          )}
        >
          ×
        </button>
      </div>
      {result?.state === 'failed' && (
        <p className="mt-2 text-sm text-red-700 dark:text-red-400">
          {t('following.failed', { problem: failureSentence(result.error, translation) })}
        </p>
      )}
      {update && update.entries.length === 0 && (
        <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">{t('following.noItems')}</p>
      )}
      {update && update.entries.length > 0 && (
        <ol className="mt-2 space-y-1">
          {orderForReading(update).map((entry) => (
            <li
              key={`${entry.videoId} ${entry.position}`}
              className="flex items-baseline gap-2 text-sm"
            >
              {update.fresh.has(entry.videoId) ? (
                <span className="shrink-0 rounded bg-blue-700 px-1.5 text-xs font-semibold text-white dark:bg-blue-400 dark:text-zinc-950">
                  {t('following.newBadge')}
                </span>
              ) : null}
              {entry.position !== null && (
                <span
                  dir="ltr"
                  className="shrink-0 text-xs text-zinc-600 tabular-nums dark:text-zinc-400"
                >
                  #{translation.formatCount(entry.position)}
                </span>
              )}
              <a
                href={entry.watch}
                target="_blank"
                rel="noopener noreferrer"
                className={cx(
                  'min-w-0 truncate text-zinc-900 hover:underline dark:text-zinc-100',
                  FOCUS_RING,
                )}
              >
                <bdi>{entry.title}</bdi>
              </a>
            </li>
          ))}
        </ol>
      )}
      {result === undefined && (
        <p className="mt-2 text-sm text-zinc-600 dark:text-zinc-400">
          {t(held ? 'following.notRead' : 'app.loading')}
        </p>
      )}
    </article>
  );
});

/** New entries first (in the list's order), then the rest, a few in all. */
function orderForReading(update: ListUpdate): FeedEntry[] {
  const fresh = update.entries.filter((e) => update.fresh.has(e.videoId));
  const rest = update.entries.filter((e) => !update.fresh.has(e.videoId));
  return [...fresh, ...rest].slice(0, Math.max(SHOWN, fresh.length));
}

function Counts({
  update,
  kind,
  translation: { t },
}: {
  update: ListUpdate;
  kind: FollowedList['kind'];
  translation: Translation;
}) {
  const parts: string[] = [];
  if (update.fresh.size > 0)
    parts.push(
      t(kind === 'playlist' ? 'following.added' : 'following.new', { count: update.fresh.size }),
    );
  if (update.gone > 0) parts.push(t('following.gone', { count: update.gone }));
  return (
    <span className="text-sm text-zinc-700 dark:text-zinc-300">
      {parts.length > 0 ? parts.join(' · ') : t('following.noChange')}
    </span>
  );
}
