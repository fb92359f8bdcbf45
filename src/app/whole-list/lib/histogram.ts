import type { Translation } from '../../i18n/use-translation.ts';

// The distributions the "Whole list" panel charts: durations in bins a viewer thinks in, and
// view counts (or a playlist's videos) on a log scale, a bin per power of ten. A bin holds
// numbers only; its words, and the numbers in them, are the reader's language's
// (`binLabel`, `binDescription`).

/** How a bin is named: a duration bin by its unit, a count bin by its decade. */
export type BinKind =
  'under-minutes' | 'minutes-with-unit' | 'minutes' | 'hours' | 'hours-or-more' | 'zero' | 'decade';

export interface Bin {
  kind: BinKind;
  /** The smallest value in the bin (seconds for durations). */
  from: number;
  /** The value the bin stops before; Infinity for the last duration bin. */
  below: number;
  count: number;
}

const DURATION_BINS: ReadonlyArray<{ below: number; kind: BinKind }> = [
  { below: 60, kind: 'under-minutes' },
  { below: 300, kind: 'minutes-with-unit' },
  { below: 600, kind: 'minutes' },
  { below: 1200, kind: 'minutes' },
  { below: 1800, kind: 'minutes' },
  { below: 3600, kind: 'minutes' },
  { below: 7200, kind: 'hours' },
  { below: Infinity, kind: 'hours-or-more' },
];

/** Durations (seconds) by bin; nulls (live streams) are counted apart. */
export function durationBins(values: Iterable<number | null>): { bins: Bin[]; missing: number } {
  const bins = DURATION_BINS.map(({ below, kind }, i) => ({
    kind,
    from: i === 0 ? 0 : DURATION_BINS[i - 1]!.below,
    below,
    count: 0,
  }));
  let missing = 0;
  for (const v of values) {
    if (v === null) {
      missing++;
      continue;
    }
    const at = DURATION_BINS.findIndex(({ below }) => v < below);
    bins[at]!.count++;
  }
  return { bins, missing };
}

/**
 * Counts by power of ten: 0, 1–9, 10–99, … up to the largest value's decade, with empty
 * decades in between kept (a log axis shows the gaps). Nulls are counted apart.
 */
export function logBins(values: Iterable<number | null>): { bins: Bin[]; missing: number } {
  const counts: number[] = [];
  let zeros = 0;
  let missing = 0;
  for (const v of values) {
    if (v === null) missing++;
    else if (v < 1) zeros++;
    else {
      const power = Math.min(15, Math.floor(Math.log10(v) + 1e-9));
      counts[power] = (counts[power] ?? 0) + 1;
    }
  }
  const bins: Bin[] = [{ kind: 'zero', from: 0, below: 1, count: zeros }];
  for (let p = 0; p < counts.length; p++) {
    bins.push({ kind: 'decade', from: 10 ** p, below: 10 ** (p + 1), count: counts[p] ?? 0 });
  }
  // The zero bin only when some value is zero: otherwise the axis starts at 1.
  return { bins: zeros === 0 && bins.length > 1 ? bins.slice(1) : bins, missing };
}

type Words = Pick<Translation, 't' | 'formatCount'>;

/** A decade's axis label says its first value the short way ("1K", "1万"). */
const COMPACT = { compact: { notation: 'compact', maximumFractionDigits: 1 } } as const;

/** What the bin holds, as its axis label under the bar ("5–10", "1K+"): short, to fit. */
export function binLabel(bin: Bin, { t, formatCount }: Words): string {
  const minutes = { from: bin.from / 60, to: bin.below / 60 };
  const hours = { from: bin.from / 3600, to: bin.below / 3600 };
  switch (bin.kind) {
    case 'under-minutes':
      return t('wholeList.chart.duration.under', { minutes: minutes.to });
    case 'minutes-with-unit':
      return t('wholeList.chart.duration.minutesWithUnit', minutes);
    case 'minutes':
      return t('wholeList.chart.duration.minutes', minutes);
    case 'hours':
      return t('wholeList.chart.duration.hours', hours);
    case 'hours-or-more':
      return t('wholeList.chart.duration.hoursOrMore', { from: hours.from });
    case 'zero':
      return formatCount(0);
    case 'decade':
      return t('wholeList.chart.count.atLeast', { from: bin.from }, { formats: COMPACT });
  }
}

/** The same in words, for a screen reader ("5 to 10 minutes", "1,000 to 9,999"). */
export function binDescription(bin: Bin, { t }: Words): string {
  const minutes = { from: bin.from / 60, to: bin.below / 60 };
  const hours = { from: bin.from / 3600, to: bin.below / 3600 };
  switch (bin.kind) {
    case 'under-minutes':
      return t('wholeList.chart.duration.underSpoken', { minutes: minutes.to });
    case 'minutes-with-unit':
    case 'minutes':
      return t('wholeList.chart.duration.minutesSpoken', minutes);
    case 'hours':
      return t('wholeList.chart.duration.hoursSpoken', hours);
    case 'hours-or-more':
      return t('wholeList.chart.duration.hoursOrMoreSpoken', { from: hours.from });
    case 'zero':
      return t('wholeList.chart.count.none');
    case 'decade':
      return t('wholeList.chart.count.range', { from: bin.from, to: bin.below - 1 });
  }
}
