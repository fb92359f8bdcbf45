import type { SeekState, SeekTarget } from '../lib/deep-link.ts';
import { useTranslation } from '../i18n/use-translation.ts';

/** A deep link's progress while the pages up to its item load, or why it is not there. */
export function SeekStatus({
  state,
  target,
  loaded,
  total,
}: {
  state: SeekState;
  target: SeekTarget | null;
  loaded: number;
  total: number | undefined;
}) {
  const { t } = useTranslation();
  if (!target || state === 'none' || state === 'found' || state === 'failed') return null;
  const wanted = 'index' in target ? target.index : null;
  if (state === 'missing') {
    return (
      <p
        role="status"
        className="mb-3 rounded-lg border border-amber-400 p-3 text-sm text-zinc-800 dark:border-amber-700 dark:text-zinc-200"
      >
        {wanted !== null
          ? t('seek.missingIndex', { count: loaded, index: wanted })
          : t('seek.missingVideo')}
      </p>
    );
  }
  const max = wanted ?? total ?? loaded;
  return (
    <div className="mb-3 rounded-lg border border-zinc-300 p-3 dark:border-zinc-700">
      <label className="flex flex-col gap-2 text-sm text-zinc-800 dark:text-zinc-200">
        <span role="status">
          {wanted !== null
            ? t('seek.loadingIndex', { index: wanted, loaded: Math.min(loaded, wanted) })
            : total
              ? t('seek.lookingOfTotal', { count: total, checked: loaded })
              : t('seek.looking', { count: loaded })}
        </span>
        <progress
          className="h-2 w-full accent-blue-700"
          value={Math.min(loaded, max)}
          max={Math.max(max, 1)}
        />
      </label>
    </div>
  );
}
