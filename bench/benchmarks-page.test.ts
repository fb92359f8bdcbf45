import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { format } from 'prettier';
import {
  BEGIN,
  END,
  PAGE,
  dataPathOf,
  mergeRun,
  readPageData,
  renderPage,
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

  it('keeps the figures in JSON beside the page and renders only between the markers', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'bench-page-')), 'benchmarks.md');
    writeFileSync(path, `# Benchmarks\n\nProse by hand.\n\n${BEGIN}\nold\n${END}\n\nMore prose.\n`);
    const first = run('2026-01-01 10:00 UTC', false, [['3', 2]]);
    // A message with a table's separator in it must not split its row.
    await writeRun(first, new Set(['3']), [row('3', 'fails | badly -->')], path);
    await writeRun(
      run('2026-01-02 10:00 UTC', false, [['4', 2]]),
      new Set(['4']),
      [row('4', 'q')],
      path,
    );
    expect(dataPathOf(path)).toMatch(/benchmarks\.json$/);
    expect(readPageData(dataPathOf(path)).rows.map((r) => [r.bench, r.figure])).toEqual([
      ['3', 'fails | badly -->'],
      ['4', 'q'],
    ]);
    const page = readFileSync(path, 'utf8');
    expect(page).toMatch(/^# Benchmarks\n\nProse by hand\.\n/);
    expect(page).toMatch(/More prose\.\n$/);
    expect(page).not.toContain('\nold\n');
    expect(page).not.toContain('bench:data');
    expect(page).toContain('| 3 | measure of 3 | fails \\| badly --> | ref |');
    expect(page).toContain('**2026-01-01 10:00 UTC**, bench 3: commit `abc`');
    expect(page).toContain('all on 2 cores (CPU), Node v26');
    expect(await format(page, { filepath: path, singleQuote: true, printWidth: 100 })).toBe(page);
    const json = readFileSync(dataPathOf(path), 'utf8');
    expect(await format(json, { filepath: dataPathOf(path) })).toBe(json);
  });

  it('refuses to write a page whose figures have gone missing', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'bench-page-')), 'benchmarks.md');
    writeFileSync(
      path,
      `# Benchmarks\n\n${BEGIN}\n\n| # | measure |\n| --- | --- |\n| 1 | a |\n${END}\n`,
    );
    await expect(writeRun(earlier.runs[0]!, new Set(), [], path)).rejects.toThrow(/missing/);
  });

  it('refuses a page without its markers, and then writes no figures either', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'bench-page-')), 'benchmarks.md');
    writeFileSync(path, '# Benchmarks\n');
    await expect(writeRun(earlier.runs[0]!, new Set(), [], path)).rejects.toThrow(/markers/);
    expect(() => statSync(dataPathOf(path))).toThrow();
  });

  it('is rendered from docs/benchmarks.json, every row of it, and stays under 30 KB', async () => {
    const page = readFileSync(PAGE, 'utf8');
    const data = readPageData();
    expect(data.rows.length).toBeGreaterThan(0);
    expect(await renderPage(page, data)).toBe(page);
    const table = page.slice(page.indexOf(BEGIN), page.indexOf(END)).match(/^\| .* \|$/gm);
    // The header, its rule, and a line for each row.
    expect(table).toHaveLength(data.rows.length + 2);
    expect(Buffer.byteLength(page)).toBeLessThan(30 * 1024);
  });
});
