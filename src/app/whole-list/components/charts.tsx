import { memo, useId, useMemo } from 'react';
import { itemViews, type ListItem, type ListKind } from '../../../shared/whole-list.ts';
import { formatCount, plural } from '../../lib/format.ts';
import { durationBins, logBins, type Bin } from '../lib/histogram.ts';
import { CARD, QUIET, SUBHEADING } from './panel-styles.ts';

// Distributions drawn as inline SVG bar charts: durations, and views (or a playlist's videos)
// on a log scale. Each chart has its words in a figcaption and its numbers in a table that
// screen readers read instead of the picture; the colours follow the light or dark theme.

/** Every chart is as wide, whatever its number of bars, so their text is the same size. */
const WIDTH = 320;
const GAP = 6;
const PLOT = 96;
const TOP = 14;
const LABELS = 18;

function BarChart({
  title,
  bins,
  note,
  unit,
}: {
  title: string;
  bins: Bin[];
  note: string;
  unit: string;
}) {
  const captionId = useId();
  const max = Math.max(1, ...bins.map((b) => b.count));
  const width = WIDTH;
  const bar = (WIDTH - GAP * (bins.length + 1)) / Math.max(1, bins.length);
  const height = TOP + PLOT + LABELS;
  return (
    <figure aria-labelledby={captionId} className="min-w-0">
      <figcaption id={captionId} className="mb-1">
        <span className={SUBHEADING}>{title}</span>
        <span className={`${QUIET} block`}>{note}</span>
      </figcaption>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="h-auto w-full max-w-md"
        aria-hidden="true"
        focusable="false"
      >
        <line
          x1={0}
          x2={width}
          y1={TOP + PLOT + 0.5}
          y2={TOP + PLOT + 0.5}
          className="stroke-zinc-300 dark:stroke-zinc-700"
        />
        {bins.map((bin, i) => {
          const h = bin.count === 0 ? 0 : Math.max(2, (bin.count / max) * PLOT);
          const x = GAP + i * (bar + GAP);
          return (
            <g key={bin.label}>
              <rect
                x={x}
                y={TOP + PLOT - h}
                width={bar}
                height={h}
                rx={2}
                className="fill-blue-600 dark:fill-blue-400"
              />
              {bin.count > 0 && (
                <text
                  x={x + bar / 2}
                  y={TOP + PLOT - h - 3}
                  textAnchor="middle"
                  className="fill-zinc-700 text-[10px] tabular-nums dark:fill-zinc-300"
                >
                  {bin.count >= 10_000 ? `${Math.round(bin.count / 1000)}K` : bin.count}
                </text>
              )}
              <text
                x={x + bar / 2}
                y={TOP + PLOT + 13}
                textAnchor="middle"
                className="fill-zinc-700 text-[10px] dark:fill-zinc-300"
              >
                {bin.label}
              </text>
            </g>
          );
        })}
      </svg>
      <table className="sr-only">
        <caption>{title}</caption>
        <thead>
          <tr>
            <th scope="col">{unit}</th>
            <th scope="col">Items</th>
          </tr>
        </thead>
        <tbody>
          {bins.map((bin) => (
            <tr key={bin.label}>
              <th scope="row">{bin.description}</th>
              <td>{bin.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

function missingNote(missing: number, what: string): string {
  return missing > 0 ? ` · ${formatCount(missing)} ${what}` : '';
}

/** The charts over the items loaded so far (all of them once "Load all" is done). */
export const Charts = memo(function Charts({
  list,
  items,
  complete,
}: {
  list: ListKind;
  items: readonly ListItem[];
  complete: boolean;
}) {
  const charts = useMemo(() => {
    if (list === 'channel-playlists') {
      const videos = logBins(items.map((item) => (item as { videoCount: number }).videoCount));
      return [
        {
          title: 'Videos per playlist (log scale)',
          unit: 'Videos',
          ...videos,
          what: '',
        },
      ];
    }
    const durations = durationBins(
      items.map((item) => (item as { duration: number | null }).duration),
    );
    const views = logBins(items.map((item) => itemViews(list, item)));
    return [
      { title: 'Durations', unit: 'Duration', ...durations, what: 'live or without a duration' },
      { title: 'Views (log scale)', unit: 'Views', ...views, what: 'without a view count' },
    ];
  }, [list, items]);
  const scope = complete
    ? `All ${plural(items.length, 'item', 'items')}`
    : `The ${plural(items.length, 'item', 'items')} loaded so far`;
  return (
    <div className={`${CARD} grid gap-4 sm:grid-cols-2`} data-testid="charts">
      {charts.map((chart) => (
        <BarChart
          key={chart.title}
          title={chart.title}
          unit={chart.unit}
          bins={chart.bins}
          note={`${scope}${missingNote(chart.missing, chart.what)}`}
        />
      ))}
    </div>
  );
});
