import { useId } from 'react';
import { playlistPath } from '../../../shared/app-routes.ts';
import type { ListSummary, NotableItem } from '../../../shared/whole-list.ts';
import { TextButton, TextLink } from '../../components/ui/text-link.tsx';
import { formatCount, formatDuration, plural } from '../../lib/format.ts';
import { formatLongDuration, formatSpeed, SPEEDS } from '../lib/watch-time.ts';
import type { WholeListProps } from '../panel-props.ts';
import { findBarHeight } from './find-bar.tsx';
import { NOTE, QUIET } from './panel-styles.ts';

// A summary as the total shows it: the figure, the time at faster speeds, the average and
// median, and the shortest and longest items, each a way to the item in the list.

function Notable({
  label,
  item,
  seconds,
  props,
}: {
  label: string;
  item: NotableItem;
  seconds: boolean;
  props: WholeListProps;
}) {
  const value = seconds ? formatDuration(item.value) : plural(item.value, 'video', 'videos');
  const position = `#${formatCount(item.position)}`;
  const loaded = item.position <= props.items.length;
  const jump = loaded ? (
    <TextButton
      onClick={() => props.host.jump(item.position - 1, findBarHeight())}
      className="font-semibold underline-offset-2"
      aria-label={`Show ${position} in the list`}
    >
      {position}
    </TextButton>
  ) : props.list === 'playlist' ? (
    <TextLink
      to={playlistPath(props.id, { index: item.position })}
      className="font-semibold underline-offset-2"
    >
      {position}
    </TextLink>
  ) : (
    <span>{position}</span>
  );
  return (
    <li className="min-w-0 truncate">
      <span className="text-zinc-600 dark:text-zinc-400">{label}: </span>
      {jump} <span className="tabular-nums">({value})</span> {item.title}
    </li>
  );
}

export function SummaryView({ summary, props }: { summary: ListSummary; props: WholeListProps }) {
  const { measure, range } = summary;
  const seconds = measure.unit === 'seconds';
  const speedsId = useId();
  const what = props.list === 'channel-playlists' ? ['playlist', 'playlists'] : ['video', 'videos'];
  const scope = range
    ? `Items ${formatCount(range.from)} to ${formatCount(range.to)}`
    : 'The whole list';
  return (
    <div className="mt-2 space-y-3" data-testid="summary">
      <div>
        <p
          className={QUIET}
        >{`${scope} · ${plural(summary.count, what[0]!, what[1]!)}${summary.totalItems !== null && !range ? ` of ${formatCount(summary.totalItems)} stated` : ''}`}</p>
        {seconds ? (
          <p className="text-2xl font-bold tabular-nums text-zinc-900 dark:text-zinc-50">
            <span data-testid="total-duration">{formatDuration(measure.total)}</span>{' '}
            <span className="text-base font-medium text-zinc-700 dark:text-zinc-300">
              ({formatLongDuration(measure.total)})
            </span>
          </p>
        ) : (
          <p className="text-2xl font-bold tabular-nums text-zinc-900 dark:text-zinc-50">
            <span data-testid="total-videos">{plural(measure.total, 'video', 'videos')}</span>{' '}
            <span className="text-base font-medium text-zinc-700 dark:text-zinc-300">
              across these playlists
            </span>
          </p>
        )}
        {range?.clipped && (
          <p
            className={NOTE}
          >{`The list ends at item ${formatCount(range.to)}: the range stops there (${formatCount(range.requestedTo)} asked).`}</p>
        )}
        {!summary.complete && (
          <p className="text-sm font-medium text-amber-800 dark:text-amber-300">
            {`Partial: the server could not read the whole list${summary.stoppedBy ? ` (${summary.stoppedBy.detail})` : ''}.`}
          </p>
        )}
      </div>
      {seconds && (
        <div>
          <p className={QUIET} id={speedsId}>
            Time to watch at each speed
          </p>
          <dl
            aria-labelledby={speedsId}
            className="flex flex-wrap gap-x-4 gap-y-1 text-sm tabular-nums"
          >
            {SPEEDS.map((speed) => (
              <div key={speed} className="flex gap-1.5">
                <dt className="font-semibold text-zinc-700 dark:text-zinc-300">
                  {formatSpeed(speed)}
                </dt>
                <dd className="text-zinc-900 dark:text-zinc-100" data-testid={`at-${speed}`}>
                  {formatDuration(Math.round(measure.total / speed))}
                </dd>
              </div>
            ))}
          </dl>
        </div>
      )}
      <ul className={`${NOTE} space-y-0.5`}>
        {measure.average !== null && (
          <li>
            {seconds
              ? `Average ${formatDuration(Math.round(measure.average))} · median ${formatDuration(Math.round(measure.median ?? 0))}`
              : `Average ${formatCount(Math.round(measure.average))} videos · median ${formatCount(Math.round(measure.median ?? 0))}`}
            {measure.missing > 0 &&
              ` · ${plural(measure.missing, seconds ? 'video without a duration (live)' : 'item without a count', seconds ? 'videos without a duration (live)' : 'items without a count')}`}
          </li>
        )}
        {measure.shortest && (
          <Notable
            label={seconds ? 'Shortest' : 'Fewest'}
            item={measure.shortest}
            seconds={seconds}
            props={props}
          />
        )}
        {measure.longest && (
          <Notable
            label={seconds ? 'Longest' : 'Most'}
            item={measure.longest}
            seconds={seconds}
            props={props}
          />
        )}
      </ul>
    </div>
  );
}
