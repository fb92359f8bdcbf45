import { describeDuration, formatDuration } from '../lib/format.ts';

/** Duration over a thumbnail's corner; a null duration is a live stream. */
export function DurationBadge({ seconds }: { seconds: number | null }) {
  const text = formatDuration(seconds);
  const base =
    'absolute right-1 bottom-1 rounded px-1 text-xs font-semibold leading-5 tabular-nums text-white';
  if (text === null) {
    return <span className={`${base} bg-red-700`}>LIVE</span>;
  }
  return (
    <span className={`${base} bg-black/85`}>
      <span aria-hidden="true">{text}</span>
      <span className="sr-only">{`Duration ${describeDuration(seconds)}`}</span>
    </span>
  );
}
