import { useTranslation } from '../i18n/use-translation.ts';
import { formatDuration } from '../lib/format.ts';

/** Duration over a thumbnail's corner; a null duration is a live stream. */
export function DurationBadge({ seconds }: { seconds: number | null }) {
  const { t, describeDuration } = useTranslation();
  const text = formatDuration(seconds);
  const base =
    'absolute end-1 bottom-1 rounded px-1 text-xs font-semibold leading-5 tabular-nums text-white';
  if (seconds === null || text === null) {
    return <span className={`${base} bg-red-700`}>{t('row.duration.live')}</span>;
  }
  return (
    <span className={`${base} bg-black/85`}>
      {/* H:MM:SS reads left to right in every language. */}
      <span aria-hidden="true" dir="ltr">
        {text}
      </span>
      <span className="sr-only">
        {t('row.duration.label', { duration: describeDuration(seconds) })}
      </span>
    </span>
  );
}
