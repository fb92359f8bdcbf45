import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { playlistPath } from '../../shared/app-routes.ts';
import type { ListSummary, NotableItem } from '../../shared/whole-list.ts';
import { summaryOptions, walkCostOptions } from '../api/whole-list-queries.ts';
import type { WholeListSlotProps } from '../components/whole-list-slot.tsx';
import { formatCount, formatDuration, plural } from '../lib/format.ts';
import { failureSentence } from '../lib/problem-text.ts';
import { readPanelParams, replacePanelParams } from '../lib/whole-list-params.ts';
import { formatLongDuration, formatSpeed, SPEEDS } from './format.ts';
import { BUTTON, BUTTON_QUIET, CARD, INPUT, NOTE, QUIET, SUBHEADING } from './ui.ts';

// The list's exact total, from the server's summary: a duration with the time it takes at
// faster speeds, or a channel's videos across its playlists; over a range of items (from A to
// B) when one is chosen, kept in the address as ?from=&to= so that it can be shared.

interface Range {
  from: number | undefined;
  to: number | undefined;
}

function RangeForm({
  range,
  max,
  onApply,
}: {
  range: Range;
  max: number | null;
  onApply: (range: Range) => void;
}) {
  const [from, setFrom] = useState(range.from?.toString() ?? '');
  const [to, setTo] = useState(range.to?.toString() ?? '');
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const a = from.trim() === '' ? undefined : Number(from);
    const b = to.trim() === '' ? undefined : Number(to);
    const bad = (n: number | undefined) => n !== undefined && (!Number.isInteger(n) || n < 1);
    if (bad(a) || bad(b)) return setError('Items are numbered from 1.');
    if (a !== undefined && b !== undefined && a > b) return setError('“From” comes after “to”.');
    setError(null);
    onApply({ from: a, to: b });
  };
  const clear = () => {
    setFrom('');
    setTo('');
    setError(null);
    onApply({ from: undefined, to: undefined });
  };
  const inputProps = {
    type: 'number',
    inputMode: 'numeric' as const,
    min: 1,
    max: max ?? undefined,
    className: `${INPUT} w-24`,
    'aria-invalid': error !== null,
    'aria-describedby': error !== null ? errorId : undefined,
  };
  return (
    <form onSubmit={submit} className="mt-3 flex flex-wrap items-end gap-2" aria-label="Range">
      <label className={`${QUIET} flex flex-col gap-1`}>
        From item
        <input {...inputProps} value={from} onChange={(e) => setFrom(e.target.value)} />
      </label>
      <label className={`${QUIET} flex flex-col gap-1`}>
        To item
        <input {...inputProps} value={to} onChange={(e) => setTo(e.target.value)} />
      </label>
      <button type="submit" className={BUTTON}>
        Total of range
      </button>
      {(range.from !== undefined || range.to !== undefined) && (
        <button type="button" onClick={clear} className={BUTTON_QUIET}>
          Clear range
        </button>
      )}
      {error && (
        <p id={errorId} role="alert" className="w-full text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </form>
  );
}

function Notable({
  label,
  item,
  seconds,
  props,
}: {
  label: string;
  item: NotableItem;
  seconds: boolean;
  props: WholeListSlotProps;
}) {
  const value = seconds ? formatDuration(item.value) : plural(item.value, 'video', 'videos');
  const position = `#${formatCount(item.position)}`;
  const loaded = item.position <= props.items.length;
  const jump = loaded ? (
    <button
      type="button"
      onClick={() => props.host.jump(item.position - 1, stickyOffset())}
      className="font-semibold text-blue-700 underline-offset-2 hover:underline dark:text-blue-400"
      aria-label={`Show ${position} in the list`}
    >
      {position}
    </button>
  ) : props.list === 'playlist' ? (
    <Link
      to={playlistPath(props.id, { index: item.position })}
      className="font-semibold text-blue-700 underline-offset-2 hover:underline dark:text-blue-400"
    >
      {position}
    </Link>
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

/** The find bar's height: a jump keeps the row clear of it. */
export function stickyOffset(): number {
  return document.querySelector<HTMLElement>('[data-find-bar]')?.offsetHeight ?? 0;
}

function SummaryView({ summary, props }: { summary: ListSummary; props: WholeListSlotProps }) {
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

export function Totals(props: WholeListSlotProps) {
  const [range, setRange] = useState<Range>(() => {
    const { from, to } = readPanelParams(window.location.search);
    return { from, to };
  });
  // The server adds up by reading every page: asked for at once when that is free (the pages
  // are cached, or the whole list is already here) or when a link names a range; otherwise
  // what it would cost is said first, as for Load all.
  const [asked, setAsked] = useState(() => range.from !== undefined || range.to !== undefined);
  const cost = useQuery({
    ...walkCostOptions(props.list, props.id),
    enabled: !props.complete && !asked,
  });
  const free = props.complete || cost.data?.lookups === 0;
  const summary = useQuery({
    ...summaryOptions(props.list, props.id, range.from, range.to),
    enabled: asked || free,
  });
  const apply = (next: Range) => {
    setAsked(true);
    setRange(next);
    replacePanelParams(next);
  };
  const heading = props.list === 'channel-playlists' ? 'Videos in all playlists' : 'Total time';
  return (
    <div className={CARD}>
      <h3 className={SUBHEADING}>{heading}</h3>
      {!asked && !free ? (
        <div className="mt-2 space-y-2">
          <p className={NOTE}>
            {cost.data?.lookups
              ? `Adding up every item reads the whole list: ${plural(cost.data.lookups, 'lookup', 'lookups')} to the catalogue.`
              : 'Adding up every item reads the whole list, a lookup for each page not yet read.'}
          </p>
          <button type="button" onClick={() => setAsked(true)} className={BUTTON}>
            Add up the whole list
          </button>
        </div>
      ) : summary.isPending ? (
        <p role="status" className={`${QUIET} mt-2`}>
          Adding up the list…
        </p>
      ) : summary.isError ? (
        <p role="alert" className={`${NOTE} mt-2`}>
          {`The total could not be computed: ${failureSentence(summary.error)}`}
        </p>
      ) : (
        <SummaryView summary={summary.data} props={props} />
      )}
      <RangeForm range={range} max={props.totalItems} onApply={apply} />
    </div>
  );
}
