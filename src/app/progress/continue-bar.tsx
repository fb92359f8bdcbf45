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
}: {
  entry: ListProgress | null;
  items: ReadonlyArray<{ index: number; duration: number | null } | undefined>;
  total: number | null;
}) {
  const { t, formatCount, formatLongDuration } = useTranslation();
  const position = entry?.position ?? null;
  if (position === null) return null;
  const left = total === null ? null : timeLeft(items, position, total);
  const shown = formatCount(position);
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-1 pb-3 text-sm">
      <Link
        to={{ search: `?index=${position}` }}
        className={cx(
          'rounded-md bg-zinc-900 px-3 py-1.5 font-medium text-white hover:bg-zinc-700 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-zinc-300',
          FOCUS_RING,
        )}
      >
        {t('progress.continueAt', { position: shown })}
      </Link>
      {left ? (
        <p className="text-zinc-700 dark:text-zinc-300" data-testid="progress-time-left">
          {t(left.exact ? 'progress.timeLeft' : 'progress.timeLeft.estimate', {
            position: shown,
            duration: formatLongDuration(left.seconds),
          })}
        </p>
      ) : null}
    </div>
  );
}
