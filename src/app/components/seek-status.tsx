import type { SeekState, SeekTarget } from '../lib/deep-link.ts';
import { formatCount, plural } from '../lib/format.ts';

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
  if (!target || state === 'none' || state === 'found' || state === 'failed') return null;
  const wanted = 'index' in target ? target.index : null;
  if (state === 'missing') {
    return (
      <p
        role="status"
        className="mb-3 rounded-lg border border-amber-400 p-3 text-sm text-zinc-800 dark:border-amber-700 dark:text-zinc-200"
      >
        {wanted !== null
          ? `This playlist has ${plural(loaded, 'video', 'videos')}, so there is no item ${formatCount(wanted)}.`
          : 'The video from the link is not in this playlist.'}
      </p>
    );
  }
  const max = wanted ?? total ?? loaded;
  return (
    <div className="mb-3 rounded-lg border border-zinc-300 p-3 dark:border-zinc-700">
      <label className="flex flex-col gap-2 text-sm text-zinc-800 dark:text-zinc-200">
        <span role="status">
          {wanted !== null
            ? `Loading up to item ${formatCount(wanted)}: ${formatCount(Math.min(loaded, wanted))} of ${formatCount(wanted)} loaded…`
            : `Looking for the video: ${formatCount(loaded)}${total ? ` of ${formatCount(total)}` : ''} videos checked…`}
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
