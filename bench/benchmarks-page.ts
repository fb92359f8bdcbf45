import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { format, resolveConfig } from 'prettier';
import { renderPageTable, pageMeasures, ELIDED, DITTO, type BenchRow } from './table.ts';
import { describeMisses } from './repeats.ts';

// docs/benchmarks.md is where people read the benchmark figures, and docs/benchmarks.json beside
// it is where they are kept; only `npm run bench -- --write` writes either. The prose around the
// page's markers is written by hand, everything between them is rendered from the JSON. Keeping
// the figures as data lets a partial run (`--only 3,4 --write`) replace the rows of the benches it
// ran and keep every other row with the run it came from, instead of mixing figures from
// different runs under one date; keeping them out of the page lets the page stay short enough to
// read, showing long cells shortened.

export const PAGE = 'docs/benchmarks.md';
export const BEGIN = '<!-- bench:begin -->';
export const END = '<!-- bench:end -->';

/** Where a page's figures are kept: beside it, as JSON. */
export const dataPathOf = (page: string): string => page.replace(/\.md$/, '') + '.json';

/** One run of `npm run bench -- --write`: when, on what, at which commit. */
export interface BenchRun {
  /** "2026-11-24 09:17 UTC": also the row's `run` column. */
  date: string;
  commit: string;
  machine: string;
  /** The 1-minute load average when the run started, and when it ended. */
  load: string;
  /** The benches it ran, each with how long it took in seconds. */
  took: Array<[bench: string, seconds: number]>;
  full: boolean;
  /** How many times each bench ran (`--repeat`); absent for one. */
  repeat?: number;
}

export interface StoredRow extends BenchRow {
  run: string;
}

export interface PageData {
  runs: BenchRun[];
  rows: StoredRow[];
}

/**
 * The figures after a run: rows of the benches it covered are replaced (a full run replaces all,
 * so benches that no longer exist drop out); the rest stay with their own run. Runs no row comes
 * from any more are dropped.
 */
export function mergeRun(
  before: PageData,
  run: BenchRun,
  covered: ReadonlySet<string>,
  rows: readonly BenchRow[],
): PageData {
  const kept = run.full ? [] : before.rows.filter((r) => !covered.has(r.bench));
  const merged = [...kept, ...rows.map((r) => ({ ...r, run: run.date }))];
  // Numbered benches in order, then the named ones (lighthouse).
  const order = (bench: string) => {
    const number = Number.parseInt(bench, 10);
    return Number.isNaN(number) ? Number.MAX_SAFE_INTEGER : number;
  };
  // A stable sort: rows of one bench keep the order their bench gave them.
  merged.sort((a, b) => order(a.bench) - order(b.bench));
  const used = new Set(merged.map((r) => r.run));
  const runs = [...before.runs.filter((r) => r.date !== run.date), run]
    .filter((r) => used.has(r.date))
    .sort((a, b) => a.date.localeCompare(b.date));
  return { runs, rows: merged };
}

/** The figures kept at `path` (docs/benchmarks.json); none before the first run writes them. */
export function readPageData(path = dataPathOf(PAGE)): PageData {
  if (!existsSync(path)) return { runs: [], rows: [] };
  return JSON.parse(readFileSync(path, 'utf8')) as PageData;
}

const seconds = (s: number) => (s >= 90 ? `${(s / 60).toFixed(1)} min` : `${Math.round(s)} s`);

/** A run in a line; the machine only when the runs were not all on one. */
function describeRun(run: BenchRun, withMachine: boolean): string {
  const total = run.took.reduce((sum, [, s]) => sum + s, 0);
  const benches = run.took.map(([bench]) => bench);
  const what = run.full
    ? 'full run'
    : `${benches.length === 1 && !benches[0]!.includes(',') ? 'bench' : 'benches'} ${benches.join('; ')}`;
  // How long each bench took only where the run had more than one.
  const each =
    run.took.length > 1 ? ` (${run.took.map(([b, s]) => `${b}: ${seconds(s)}`).join('; ')})` : '';
  return (
    `- **${run.date}**, ${what}: commit \`${run.commit}\`; ` +
    `${withMachine ? `${run.machine}; ` : ''}load average ${run.load}; ` +
    `${run.repeat && run.repeat > 1 ? `each bench ${run.repeat} times; ` : ''}` +
    `${seconds(total)}${each}.`
  );
}

/** The generated part of the page: the table, the rows that miss, and the runs. */
export function renderSection(data: PageData): string {
  const machines = [...new Set(data.runs.map((r) => r.machine))];
  const oneMachine = machines.length === 1;
  // Named as the table names them; describeMisses says by how much from the figures, not these.
  const measures = pageMeasures(data.rows);
  const misses = describeMisses(
    data.rows.map((row, i) => ({
      ...row,
      measure: `${measures[i]!.what} ${measures[i]!.conditions}`.trim(),
    })),
  );
  return [
    '',
    '<!-- Written by `npm run bench -- --write` (bench/benchmarks-page.ts) from benchmarks.json: edits between the markers are lost. -->',
    '',
    // Aligned, the table's columns would be as wide as its longest cell on every row.
    '<!-- prettier-ignore-start -->',
    renderPageTable(data.rows),
    '<!-- prettier-ignore-end -->',
    '',
    `${DITTO}: the same as the cell above. A cell shortened for the page shows ${ELIDED} where it ` +
      `left text out; [benchmarks.json](benchmarks.json) has every row whole.`,
    '',
    misses.length === 0
      ? 'Every row with a target meets it.'
      : `Rows that miss their target, by how much, with the spread of their repeats:\n\n- ${misses.join('\n- ')}`,
    '',
    `Each row comes from the run named on its bench's first row${oneMachine ? `, all on ${machines[0]}` : ''}:`,
    '',
    data.runs.map((run) => describeRun(run, !oneMachine)).join('\n'),
    '',
  ].join('\n');
}

/** Merges the run's rows into the figures kept beside the page, and renders the page from them. */
export async function writeRun(
  run: BenchRun,
  covered: ReadonlySet<string>,
  rows: readonly BenchRow[],
  path = PAGE,
): Promise<void> {
  const page = readFileSync(path, 'utf8');
  const { begin, end } = sectionBounds(page, path);
  // Without its JSON, a partial run would leave the page with its own rows only.
  if (!existsSync(dataPathOf(path)) && /^\| /m.test(page.slice(begin, end)))
    throw new Error(`${dataPathOf(path)} is missing; restore it to write ${path}.`);
  const data = mergeRun(readPageData(dataPathOf(path)), run, covered, rows);
  await writeData(data, dataPathOf(path));
  await writeSection(page, data, path);
}

/** Renders the page from its figures again, for a change in how they are shown. */
export async function rerender(path = PAGE): Promise<void> {
  await writeSection(readFileSync(path, 'utf8'), readPageData(dataPathOf(path)), path);
}

function sectionBounds(page: string, path: string): { begin: number; end: number } {
  const begin = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  if (begin < 0 || end < begin)
    throw new Error(`${path} has lost its markers (${BEGIN} … ${END}); restore them to write it.`);
  return { begin: begin + BEGIN.length, end };
}

// Both files are written as `npm run format` would write them, so that formatting the
// repository leaves them alone.
async function formatted(text: string, path: string): Promise<string> {
  const options = (await resolveConfig(path)) ?? {};
  return format(text, { ...options, filepath: path });
}

async function writeData(data: PageData, path: string): Promise<void> {
  writeFileSync(path, await formatted(JSON.stringify(data, null, 2), path));
}

/** The page with its generated section rendered from `data`, formatted. */
export async function renderPage(page: string, data: PageData, path = PAGE): Promise<string> {
  const { begin, end } = sectionBounds(page, path);
  return formatted(`${page.slice(0, begin)}${renderSection(data)}${page.slice(end)}`, path);
}

async function writeSection(page: string, data: PageData, path: string): Promise<void> {
  writeFileSync(path, await renderPage(page, data, path));
}
