import { describe, expect, it } from 'vitest';
import { clipMiddle, pageMeasures, renderPageTable, type BenchRow } from './table.ts';

const row = (bench: string, measure: string, extra: Partial<BenchRow> = {}): BenchRow => ({
  bench,
  measure,
  figure: '400 ms (392–420)',
  reference: 'same HTML without scripts, a static file 388 ms (352–408)',
  ratio: '1.03×',
  target: '≤ 1.2×',
  met: true,
  ...extra,
});

describe("the page's table", () => {
  it('cuts the middle of a long cell, never the figure at its end', () => {
    expect(clipMiddle('short', 36)).toBe('short');
    expect(clipMiddle('fetch loop, same 49 continuations 837 ms (658–1,158)', 36, 0.75)).toBe(
      'fetch loop … 837 ms (658–1,158)',
    );
  });

  it('shortens measures by their asides first and keeps their conditions whole', () => {
    const [first] = pageMeasures([
      row('5', 'app, first view: navigation → first row on screen (cold profile) [local]'),
    ]);
    expect(first).toEqual({
      what: 'app, first view … first row on screen (…)',
      conditions: '[local]',
    });
  });

  it('never gives two different measures of a bench the same short form', () => {
    const audit = (page: string) =>
      row('lighthouse', `Lighthouse mobile, ${page} (3 runs): performance / accessibility / SEO`);
    const [playlist, channel] = pageMeasures([audit('playlist'), audit('channel')]);
    expect(playlist!.what).not.toBe(channel!.what);
    expect(playlist!.what).toContain('playlist');
    expect(channel!.what).toContain('channel');
  });

  it('names the bench and run once, and puts a measure under other conditions beneath it', () => {
    const table = renderPageTable([
      { ...row('5', 'first row [local]'), run: 'r1' },
      { ...row('5', 'hydrated [local]', { target: '–', met: null }), run: 'r1' },
      { ...row('5', 'first row [remote-like]', { met: false }), run: 'r1' },
    ]);
    expect(table.split('\n').slice(2)).toEqual([
      '| 5 | first row [local] | 400 ms (392–420) | same HTML … file 388 ms (352–408) | 1.03× | ≤ 1.2× | yes | – | r1 |',
      '|  | 〃 [remote-like] | 400 ms (392–420) | 〃 | 1.03× | ≤ 1.2× | **NO** | – |  |',
      '|  | hydrated [local] | 400 ms (392–420) | 〃 | 1.03× | – | – | – |  |',
    ]);
  });
});
