// The distributions the "Whole list" panel charts: durations in bins a viewer thinks in, and
// view counts (or a playlist's videos) on a log scale, a bin per power of ten.

export interface Bin {
  /** What the bin holds, as its axis label ("5–10 min", "1K–10K"). */
  label: string;
  /** The same for a screen reader ("5 to 10 minutes"). */
  description: string;
  count: number;
}

const DURATION_EDGES: ReadonlyArray<[number, string, string]> = [
  [60, '<1 min', 'under a minute'],
  [300, '1–5 min', '1 to 5 minutes'],
  [600, '5–10', '5 to 10 minutes'],
  [1200, '10–20', '10 to 20 minutes'],
  [1800, '20–30', '20 to 30 minutes'],
  [3600, '30–60', '30 to 60 minutes'],
  [7200, '1–2 h', '1 to 2 hours'],
  [Infinity, '2 h+', '2 hours or more'],
];

/** Durations (seconds) by bin; nulls (live streams) are counted apart. */
export function durationBins(values: Iterable<number | null>): { bins: Bin[]; missing: number } {
  const bins = DURATION_EDGES.map(([, label, description]) => ({ label, description, count: 0 }));
  let missing = 0;
  for (const v of values) {
    if (v === null) {
      missing++;
      continue;
    }
    const at = DURATION_EDGES.findIndex(([edge]) => v < edge);
    bins[at]!.count++;
  }
  return { bins, missing };
}

const SCALE = ['', 'K', 'M', 'B', 'T'];
function short(power: number): string {
  const unit = Math.min(Math.floor(power / 3), SCALE.length - 1);
  return `${10 ** (power - unit * 3)}${SCALE[unit]}`;
}
function long(power: number): string {
  return (10 ** power).toLocaleString('en');
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
  const bins: Bin[] = [{ label: '0', description: 'none', count: zeros }];
  for (let p = 0; p < counts.length; p++) {
    bins.push({
      label: `${short(p)}+`,
      description: `${long(p)} to ${(10 ** (p + 1) - 1).toLocaleString('en')}`,
      count: counts[p] ?? 0,
    });
  }
  // The zero bin only when some value is zero: otherwise the axis starts at 1.
  return { bins: zeros === 0 && bins.length > 1 ? bins.slice(1) : bins, missing };
}
