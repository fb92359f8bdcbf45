import { Link } from 'react-router';
import { useTranslation } from '../i18n/use-translation.ts';
import { cx } from '../components/ui/class-names.ts';
import { FOCUS_RING } from '../components/ui/focus-ring.ts';
import { timeLeft } from './time-left.ts';
import type { ListProgress } from './progress-store.ts';

// Where the reader was in this list and how long is left from there: a deep link (`?index=`,
// deep-link.ts) back to the position, so it loads the pages up to it as any shared link does.

export function ContinueBar({
  entry,
  items,
  total,
  exactSeconds,
  hideWatched,
  onHideWatched,
}: {
  entry: ListProgress | null;
  items: ReadonlyArray<{ index: number; duration: number | null } | undefined>;
  total: number | null;
  /** From the list's summary (its durations added up by the server): exact, not estimated. */
  exactSeconds: number | null;
  hideWatched: boolean;
  /** Absent where hiding does not apply (a sorted list). */
  onHideWatched?: (hide: boolean) => void;
}) {
  const { t, formatCount, formatLongDuration } = useTranslation();
  const position = entry?.position ?? null;
  const marks = entry?.marks.length ?? 0;
  if (position === null && marks === 0) return null;
  const left =
    exactSeconds !== null
      ? { seconds: exactSeconds, exact: true }
      : total === null || position === null
        ? null
        : timeLeft(items, position, total);
  const shown = position === null ? '' : formatCount(position);
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-1 pb-3 text-sm">
      {position === null ? null : (
        <Link
          to={{ search: `?index=${position}` }}
          className={cx(
            'rounded-md bg-zinc-900 px-3 py-1.5 font-medium text-white hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-zinc-300',
            FOCUS_RING,
          )}
        >
          {t('progress.continueAt', { position: shown })}
        </Link>
      )}
      {left ? (
        <p className="text-zinc-700 dark:text-zinc-300" data-testid="progress-time-left">
          {t(left.exact ? 'progress.timeLeft' : 'progress.timeLeft.estimate', {
            position: shown,
            duration: formatLongDuration(left.seconds),
          })}
        </p>
      ) : null}
      {marks > 0 && onHideWatched ? (
        <label className="flex items-center gap-2 text-zinc-700 dark:text-zinc-300">
          <input
            type="checkbox"
            checked={hideWatched}
            onChange={(event) => onHideWatched(event.target.checked)}
            className={cx('size-4 accent-zinc-900 dark:accent-zinc-100', FOCUS_RING)}
          />
          {t('progress.hideWatched')}
          {hideWatched ? (
            <span className="text-zinc-500 dark:text-zinc-400">
              ({t('progress.hidden', { count: marks })})
            </span>
          ) : null}
        </label>
      ) : null}
    </div>
  );
}
