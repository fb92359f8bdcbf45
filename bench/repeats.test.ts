import { describe, expect, it } from 'vitest';
import { combineRepeats, describeMisses, keyFigure, shortfall, verdict } from './repeats.ts';
import type { BenchRow } from './table.ts';

const row = (measure: string, ratio: string, met: boolean | null, target = '≤ 1.2×'): BenchRow => ({
  bench: '5',
  measure,
  figure: `${ratio} figure`,
  reference: 'ref',
  ratio,
  target,
  met,
});

describe('the spread of repeated bench runs', () => {
  it('judges a row by its ratio, else by its measured figure', () => {
    expect(keyFigure(row('m', '1.34× (1.20–1.63)', true))).toBe(1.34);
    expect(keyFigure({ ...row('m', '–', null), figure: '1,014 ms (995–1,086)' })).toBe(1014);
    expect(keyFigure({ ...row('m', '–', null), figure: 'none' })).toBeNull();
  });

  it('keeps a single run as it is', () => {
    const rows = [row('a', '1.1×', true)];
    expect(combineRepeats([rows])).toEqual(rows);
  });

  it('shows the median repeat with the spread and how many met', () => {
    const combined = combineRepeats([
      [row('first paint', '1.34×', false), row('hydrated', '2.7×', null, '–')],
      [row('first paint', '1.05×', true), row('hydrated', '2.9×', null, '–')],
      [row('first paint', '1.12×', true), row('hydrated', '2.5×', null, '–')],
    ]);
    expect(combined).toHaveLength(2);
    expect(combined[0]).toMatchObject({
      ratio: '1.12×',
      met: true,
      repeats: '3 runs, 1.05–1.34, met 2/3',
    });
    expect(combined[1]).toMatchObject({ ratio: '2.7×', repeats: '3 runs, 2.5–2.9' });
  });

  it('tells rows apart by their measure, not by the counts inside it', () => {
    const combined = combineRepeats([
      [row('longest task (222 thumbnails loaded)', '+0 ms', true, '–')],
      [row('longest task (221 thumbnails loaded)', '+51 ms', true, '–')],
    ]);
    expect(combined).toHaveLength(1);
    expect(combined[0]!.repeats).toBe('2 runs, 0–51, met 2/2');
  });

  it('says how far a miss is from a bound on the ratio', () => {
    expect(shortfall(row('m', '1.34×', false))).toBe('12 % over');
    expect(shortfall(row('m', '0.46× (median of pairs)', false, '≥ 0.9×'))).toBe('49 % under');
    expect(shortfall(row('m', '1.1×', true))).toBeNull();
    expect(shortfall({ ...row('m', '0.12× the file', false, '≤ 30 MB'), figure: '30.1 MB' })).toBe(
      '0.3 % over',
    );
    expect(shortfall(row('m', '80', false, 'performance ≥ 98 in each run'))).toBe('18 % under');
    expect(shortfall(row('m', '3 of 4', false, 'all of them'))).toBeNull();
  });

  it('names every row that misses, with its spread', () => {
    const [miss] = combineRepeats([
      [row('cold walk', '1.14×', false, '≤ 1.1×')],
      [row('cold walk', '1.08×', true, '≤ 1.1×')],
      [row('cold walk', '1.12×', false, '≤ 1.1×')],
    ]);
    expect(describeMisses([miss!, row('fine', '1.0×', true)])).toEqual([
      '#5 cold walk: 1.12× against ≤ 1.1× (1.8 % over); repeats: 3 runs, 1.08–1.14, met 1/3',
    ]);
    expect(describeMisses([row('once', '1.3×', false)])).toEqual([
      '#5 once: 1.3× against ≤ 1.2× (8.3 % over); one run, no repeats',
    ]);
  });
});

describe('how a run ends, with and without --check', () => {
  const met = [row('first paint', '1.1×', true), row('hydrated', '2.7×', null, '–')];

  it('passes a check when every row with a target meets it, judging no row without one', () => {
    expect(verdict(met, { check: true, failed: 0 })).toEqual({ code: 0, misses: [] });
    expect(verdict([row('no target', '9.9×', null, '–')], { check: true, failed: 0 }).code).toBe(0);
  });

  it('fails a check on a row that misses, naming it and by how much', () => {
    const rows = [...met, row('deep drag', '1.34×', false)];
    expect(verdict(rows, { check: true, failed: 0 })).toEqual({
      code: 1,
      misses: ['#5 deep drag: 1.34× against ≤ 1.2× (12 % over); one run, no repeats'],
    });
    // Without --check a miss is reported but does not fail the run.
    expect(verdict(rows, { check: false, failed: 0 }).code).toBe(0);
  });

  it('judges the median repeat: one unlucky repeat passes, a miss in most fails', () => {
    const once = combineRepeats([
      [row('cold walk', '1.14×', false, '≤ 1.1×')],
      [row('cold walk', '1.05×', true, '≤ 1.1×')],
      [row('cold walk', '1.08×', true, '≤ 1.1×')],
    ]);
    expect(verdict(once, { check: true, failed: 0 }).code).toBe(0);
    const mostly = combineRepeats([
      [row('cold walk', '1.14×', false, '≤ 1.1×')],
      [row('cold walk', '1.12×', false, '≤ 1.1×')],
      [row('cold walk', '1.08×', true, '≤ 1.1×')],
    ]);
    expect(verdict(mostly, { check: true, failed: 0 })).toMatchObject({
      code: 1,
      misses: [expect.stringContaining('1.12× against ≤ 1.1× (1.8 % over); repeats: 3 runs')],
    });
  });

  it('fails any run in which a bench broke, with or without --check', () => {
    const broken = { ...row('FAILED', '–', false, '–'), figure: 'browser closed' };
    expect(verdict([...met, broken], { check: false, failed: 1 }).code).toBe(1);
    expect(verdict([...met, broken], { check: true, failed: 1 }).code).toBe(1);
  });
});
