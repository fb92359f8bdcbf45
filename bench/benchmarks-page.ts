import { readFileSync, writeFileSync } from 'node:fs';
import { format, resolveConfig } from 'prettier';
import { renderTable, type BenchRow } from './table.ts';
import { describeMisses } from './repeats.ts';

// docs/benchmarks.md is the one place benchmark figures live, and only `npm run bench --
// --write` puts them there: the prose around the markers is written by hand, everything between
// them by this module. The figures travel with the page as JSON in a comment, so that a partial
// run (`--only 3,4 --write`) replaces the rows of the benches it ran and keeps every other row
// with the run it came from, instead of mixing figures from different runs under one date.

export const PAGE = 'docs/benchmarks.md';
export const BEGIN = '<!-- bench:begin -->';
export const END = '<!-- bench:end -->';
const DATA = /<!-- bench:data (.*?) -->/s;

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

export function readPageData(page: string): PageData {
  const section = generatedSection(page);
  const match = DATA.exec(section);
  if (!match) return { runs: [], rows: [] };
  return JSON.parse(match[1]!) as PageData;
}

function generatedSection(page: string): string {
  const begin = page.indexOf(BEGIN);
  const end = page.indexOf(END);
  if (begin < 0 || end < begin)
    throw new Error(`${PAGE} has lost its markers (${BEGIN} … ${END}); restore them to write it.`);
  return page.slice(begin + BEGIN.length, end);
}

const seconds = (s: number) => (s >= 90 ? `${(s / 60).toFixed(1)} min` : `${Math.round(s)} s`);

function describeRun(run: BenchRun): string {
  const total = run.took.reduce((sum, [, s]) => sum + s, 0);
  const each = run.took.map(([bench, s]) => `${bench}: ${seconds(s)}`).join('; ');
  return (
    `- **${run.date}** (${run.full ? 'full run' : `${run.took.length === 1 ? 'bench' : 'benches'} ${run.took.map(([b]) => b).join('; ')}`}): ` +
    `commit \`${run.commit}\`; ${run.machine}; load average ${run.load}; ` +
    `${run.repeat && run.repeat > 1 ? `each bench ${run.repeat} times; ` : ''}` +
    `${seconds(total)} (bench ${each}).`
  );
}

/** The generated part: the table, the runs its rows come from, and the data behind both. */
export function renderSection(data: PageData): string {
  // JSON in an HTML comment: "--" may not appear inside one.
  const json = JSON.stringify(data).replaceAll('--', '-\\u002d');
  const table = renderTable(
    data.rows,
    data.rows.map((r) => r.run),
  );
  const runs = data.runs.map(describeRun).join('\n');
  const misses = describeMisses(data.rows);
  return [
    '',
    '<!-- Written by `npm run bench -- --write` (bench/benchmarks-page.ts): edits between the markers are lost. -->',
    `<!-- bench:data ${json} -->`,
    '',
    table,
    '',
    misses.length === 0
      ? 'Every row with a target meets it.'
      : `Rows that miss their target, by how much, with the spread of their repeats:\n\n- ${misses.join('\n- ')}`,
    '',
    'Each row comes from the run named in its last column:',
    '',
    runs,
    '',
  ].join('\n');
}

/** Rewrites the page's generated section with the run's rows merged in. */
export async function writeRun(
  run: BenchRun,
  covered: ReadonlySet<string>,
  rows: readonly BenchRow[],
  path = PAGE,
): Promise<void> {
  const page = readFileSync(path, 'utf8');
  await writeSection(page, mergeRun(readPageData(page), run, covered, rows), path);
}

/** Renders the page's own figures again, for a change in how they are shown. */
export async function rerender(path = PAGE): Promise<void> {
  const page = readFileSync(path, 'utf8');
  await writeSection(page, readPageData(page), path);
}

async function writeSection(page: string, data: PageData, path: string): Promise<void> {
  const begin = page.indexOf(BEGIN) + BEGIN.length;
  const end = page.indexOf(END);
  const text = `${page.slice(0, begin)}${renderSection(data)}${page.slice(end)}`;
  // Formatted as `npm run format` would, so that formatting the repository leaves it alone.
  const options = (await resolveConfig(path)) ?? {};
  writeFileSync(path, await format(text, { ...options, filepath: path }));
}
