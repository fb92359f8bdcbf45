import type { BenchRow } from './table.ts';

// One run of the bench on a shared two-core machine is a sample, not a verdict: a row can miss
// its target in one run and meet it in the next with the same code. `--repeat N` runs each bench
// N times; every row then shows its median repeat, with the spread of its key figure over the
// repeats and how many of them met the target. A single run (N = 1) writes its rows as they are.

/** The number a row is judged by: its ratio's first figure, else its measured figure's. */
export function keyFigure(row: BenchRow): number | null {
  return firstNumber(row.ratio) ?? firstNumber(row.figure);
}

function firstNumber(text: string): number | null {
  const match = /[-+]?\d[\d,]*(?:\.\d+)?/.exec(text);
  if (!match) return null;
  const value = Number(match[0].replaceAll(',', ''));
  return Number.isFinite(value) ? value : null;
}

const trim = (value: number) => Number(value.toPrecision(3)).toLocaleString('en-US');

/** A row's measure with its counts taken out ("221 thumbnails loaded" varies by run). */
const measureKey = (row: BenchRow) => row.measure.replaceAll(/\d[\d,.]*/g, '#');

/**
 * The rows of N repeats of one bench, as one set: each row (told apart by its measure) is the
 * repeat with the median key figure, and says the spread over all the repeats it appeared in.
 */
export function combineRepeats(repeats: readonly (readonly BenchRow[])[]): BenchRow[] {
  if (repeats.length <= 1) return [...(repeats[0] ?? [])];
  const keys = [...new Set(repeats.flatMap((rows) => rows.map(measureKey)))];
  return keys.map((key) => {
    const seen = repeats.flatMap((rows) => rows.filter((r) => measureKey(r) === key));
    const figures = seen.map(keyFigure).filter((n): n is number => n !== null);
    const byFigure = [...seen].sort((a, b) => (keyFigure(a) ?? 0) - (keyFigure(b) ?? 0));
    const median = byFigure[Math.floor((byFigure.length - 1) / 2)]!;
    const judged = seen.filter((r) => r.met !== null);
    const met = judged.filter((r) => r.met === true).length;
    const parts = [`${seen.length} runs`];
    if (figures.length > 1)
      parts.push(`${trim(Math.min(...figures))}–${trim(Math.max(...figures))}`);
    if (judged.length > 0) parts.push(`met ${met}/${judged.length}`);
    return { ...median, repeats: parts.join(', ') };
  });
}

/**
 * How far a row that misses is from a target that is one bound: on the ratio ("1.34×" against
 * "≤ 1.2×": "12 % over"), or on the measured figure ("30.1 MB" against "≤ 30 MB"). Null for any
 * other target.
 */
export function shortfall(row: BenchRow): string | null {
  const bound = /([≤≥])\s*(\d[\d,]*(?:\.\d+)?)\s*(×?)/.exec(row.target);
  if (!bound) return null;
  const value = bound[3] ? firstNumber(row.ratio) : firstNumber(row.figure);
  const limit = Number(bound[2]!.replaceAll(',', ''));
  if (value === null || !(limit > 0)) return null;
  const off = bound[1] === '≤' ? value / limit - 1 : 1 - value / limit;
  if (off <= 0) return null;
  const percent = off * 100;
  return `${percent < 10 ? percent.toFixed(1) : Math.round(percent)} % ${bound[1] === '≤' ? 'over' : 'under'}`;
}

/** What a row's target judges: its ratio when the target is one, else its measured figure. */
const judged = (row: BenchRow) =>
  /×/.test(row.target) && row.ratio !== '–' ? row.ratio : row.figure;

/** The rows that miss their target, each with by how much and the spread of its repeats. */
export function describeMisses(rows: readonly BenchRow[]): string[] {
  return rows
    .filter((r) => r.met === false)
    .map((r) => {
      const by = shortfall(r);
      return (
        `#${r.bench} ${r.measure}: ${judged(r)} against ${r.target}` +
        `${by ? ` (${by})` : ''}; ${r.repeats ? `repeats: ${r.repeats}` : 'one run, no repeats'}`
      );
    });
}

/** How a run ends. */
export interface Verdict {
  /** The exit code: 1 when a bench broke, or under `--check` when a row misses its target. */
  code: 0 | 1;
  /** The rows that miss their target (FAILED rows among them), as describeMisses says them. */
  misses: string[];
}

/**
 * What `npm run bench` exits with. A bench that broke fails every run. `--check` also fails it
 * for any row that misses its target: under `--repeat` that row is the median repeat, so one
 * unlucky repeat does not fail it, and a row without a target (met null) is never judged.
 */
export function verdict(
  rows: readonly BenchRow[],
  options: { check: boolean; failed: number },
): Verdict {
  const misses = describeMisses(rows);
  const code = options.failed > 0 || (options.check && misses.length > 0) ? 1 : 0;
  return { code, misses };
}
