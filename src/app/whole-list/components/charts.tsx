import { memo, useId, useMemo } from 'react';
import type { MessageId } from '../../../shared/i18n/message-id.ts';
import { directionOf } from '../../../shared/locales.ts';
import { itemViews, type ListItem, type ListKind } from '../../../shared/whole-list.ts';
import { useTranslation } from '../../i18n/use-translation.ts';
import { barSlots } from '../lib/bar-layout.ts';
import { binDescription, binLabel, durationBins, logBins, type Bin } from '../lib/histogram.ts';
import { CARD, QUIET, SUBHEADING } from './panel-styles.ts';

// Distributions drawn as inline SVG bar charts: durations, and views (or a playlist's videos)
// on a log scale. Each chart has its words in a figcaption and its numbers in a table that
// screen readers read instead of the picture; the colours follow the light or dark theme. The
// bars run from the reader's start: right to left in a right-to-left language, the direction
// taken from the interface's locale (not the document), so that every render draws the same.

/** Every chart is as wide, whatever its number of bars, so their text is the same size. */
const WIDTH = 320;
const GAP = 6;
const PLOT = 96;
const TOP = 14;
const LABELS = 18;

/** Above this, a bar's count is written the short way ("12K"), to fit over the bar. */
const COMPACT_FROM = 10_000;

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
  const translation = useTranslation();
  const { t, locale, formatCount, formatCompact } = translation;
  const captionId = useId();
  const max = Math.max(1, ...bins.map((b) => b.count));
  const width = WIDTH;
  const { bar, slots } = barSlots(bins.length, {
    width,
    gap: GAP,
    direction: directionOf(locale),
  });
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
          const { x, middle } = slots[i]!;
          return (
            <g key={bin.from}>
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
                  x={middle}
                  y={TOP + PLOT - h - 3}
                  textAnchor="middle"
                  className="fill-zinc-700 text-[10px] tabular-nums dark:fill-zinc-300"
                >
                  {bin.count >= COMPACT_FROM ? formatCompact(bin.count) : formatCount(bin.count)}
                </text>
              )}
              <text
                x={middle}
                y={TOP + PLOT + 13}
                textAnchor="middle"
                className="fill-zinc-700 text-[10px] dark:fill-zinc-300"
              >
                {binLabel(bin, translation)}
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
            <th scope="col">{t('wholeList.chart.items')}</th>
          </tr>
        </thead>
        <tbody>
          {bins.map((bin) => (
            <tr key={bin.from}>
              <th scope="row">{binDescription(bin, translation)}</th>
              <td>{formatCount(bin.count)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}

/** What a chart's note says: which items it covers, and those it could not place. */
const NOTES = {
  all: {
    none: 'wholeList.chart.note.all',
    live: 'wholeList.chart.note.allLive',
    views: 'wholeList.chart.note.allNoViews',
  },
  loaded: {
    none: 'wholeList.chart.note.loaded',
    live: 'wholeList.chart.note.loadedLive',
    views: 'wholeList.chart.note.loadedNoViews',
  },
} as const satisfies Record<string, Record<string, MessageId>>;

interface ChartSpec {
  title: MessageId;
  /** The table's heading over the bins' descriptions. */
  unit: MessageId;
  bins: Bin[];
  /** Items the chart could not place. */
  missing: number;
  /** What those are, for the note. */
  unplaced: keyof (typeof NOTES)['all'];
}

/** The charts over the items loaded so far (all of them once "Load all" is done). */
export const Charts = memo(function Charts({
  list,
  items: held,
  complete,
}: {
  list: ListKind;
  items: ReadonlyArray<ListItem | undefined>;
  complete: boolean;
}) {
  const { t } = useTranslation();
  // The items held: a long list's pages let go (page-trim.ts) are not charted.
  const items = useMemo(() => held.filter((item) => item !== undefined), [held]);
  const charts = useMemo((): ChartSpec[] => {
    if (list === 'channel-playlists') {
      const videos = logBins(items.map((item) => (item as { videoCount: number }).videoCount));
      return [
        {
          title: 'wholeList.chart.videos.title',
          unit: 'wholeList.chart.videos.unit',
          ...videos,
          unplaced: 'none',
        },
      ];
    }
    const durations = durationBins(
      items.map((item) => (item as { duration: number | null }).duration),
    );
    const views = logBins(items.map((item) => itemViews(list, item)));
    return [
      {
        title: 'wholeList.chart.durations.title',
        unit: 'wholeList.chart.durations.unit',
        ...durations,
        unplaced: 'live',
      },
      {
        title: 'wholeList.chart.views.title',
        unit: 'wholeList.chart.views.unit',
        ...views,
        unplaced: 'views',
      },
    ];
  }, [list, items]);
  const scope = complete ? NOTES.all : NOTES.loaded;
  return (
    <div className={`${CARD} grid gap-4 sm:grid-cols-2`} data-testid="charts">
      {charts.map((chart) => (
        <BarChart
          key={chart.title}
          title={t(chart.title)}
          unit={t(chart.unit)}
          bins={chart.bins}
          note={t(scope[chart.missing > 0 ? chart.unplaced : 'none'], {
            count: items.length,
            missing: chart.missing,
          })}
        />
      ))}
    </div>
  );
});
