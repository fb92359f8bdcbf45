import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { format } from 'prettier';
import {
  BEGIN,
  END,
  mergeRun,
  readPageData,
  writeRun,
  type BenchRun,
  type PageData,
} from './benchmarks-page.ts';
import type { BenchRow } from './table.ts';

const row = (bench: string, figure: string): BenchRow => ({
  bench,
  measure: `measure of ${bench}`,
  figure,
  reference: 'ref',
  ratio: '1.00×',
  target: '–',
  met: null,
});

const run = (date: string, full: boolean, took: BenchRun['took']): BenchRun => ({
  date,
  commit: 'abc',
  machine: '2 cores (CPU), Node v26',
  load: '1.0',
  took,
  full,
});

const earlier: PageData = mergeRun(
  { runs: [], rows: [] },
  run('2026-01-01 10:00 UTC', true, [['1', 5]]),
  new Set(),
  [row('1', 'a'), row('3', 'b'), row('10', 'c'), row('11', 'd'), row('11', 'e')],
);

describe('the benchmarks page', () => {
  it('replaces only the rows of the benches a partial run covered, keeping the others with their run', () => {
    const later = run('2026-02-01 10:00 UTC', false, [['10, 11', 9]]);
    const data = mergeRun(earlier, later, new Set(['10', '11']), [row('10', 'x'), row('11', 'y')]);
    expect(data.rows.map((r) => [r.bench, r.figure, r.run])).toEqual([
      ['1', 'a', '2026-01-01 10:00 UTC'],
      ['3', 'b', '2026-01-01 10:00 UTC'],
      ['10', 'x', '2026-02-01 10:00 UTC'],
      ['11', 'y', '2026-02-01 10:00 UTC'],
    ]);
    expect(data.runs.map((r) => r.date)).toEqual(['2026-01-01 10:00 UTC', '2026-02-01 10:00 UTC']);
  });

  it('lets a full run replace every row, and forgets runs no row comes from', () => {
    const data = mergeRun(earlier, run('2026-03-01 10:00 UTC', true, []), new Set(), [
      row('1', 'z'),
    ]);
    expect(data.rows.map((r) => [r.bench, r.figure])).toEqual([['1', 'z']]);
    expect(data.runs.map((r) => r.date)).toEqual(['2026-03-01 10:00 UTC']);
  });

  it('writes between the markers only, formatted, and reads its own figures back', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'bench-page-')), 'benchmarks.md');
    writeFileSync(path, `# Benchmarks\n\nProse by hand.\n\n${BEGIN}\nold\n${END}\n\nMore prose.\n`);
    const first = run('2026-01-01 10:00 UTC', false, [['3', 2]]);
    // A message with "--" in it must not end the comment that carries the data.
    await writeRun(first, new Set(['3']), [row('3', 'fails -- badly -->')], path);
    await writeRun(
      run('2026-01-02 10:00 UTC', false, [['4', 2]]),
      new Set(['4']),
      [row('4', 'q')],
      path,
    );
    const page = readFileSync(path, 'utf8');
    expect(page).toMatch(/^# Benchmarks\n\nProse by hand\.\n/);
    expect(page).toMatch(/More prose\.\n$/);
    expect(page).not.toContain('\nold\n');
    expect(readPageData(page).rows.map((r) => [r.bench, r.figure])).toEqual([
      ['3', 'fails -- badly -->'],
      ['4', 'q'],
    ]);
    expect(page).toContain('**2026-01-01 10:00 UTC** (bench 3)');
    expect(page).toContain('(bench 3: 2 s).');
    expect(await format(page, { filepath: path, singleQuote: true, printWidth: 100 })).toBe(page);
  });

  it('refuses a page without its markers', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'bench-page-')), 'benchmarks.md');
    writeFileSync(path, '# Benchmarks\n');
    await expect(writeRun(earlier.runs[0]!, new Set(), [], path)).rejects.toThrow(/markers/);
  });
});
