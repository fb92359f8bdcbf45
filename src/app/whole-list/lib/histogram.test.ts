import { describe, expect, it } from 'vitest';
import { durationBins, logBins } from './histogram.ts';

describe('histograms', () => {
  it('bins durations, counting live streams apart', () => {
    const { bins, missing } = durationBins([10, 59, 60, 299, 3600, 9000, null]);
    expect(missing).toBe(1);
    expect(bins.map((b) => b.count)).toEqual([2, 2, 0, 0, 0, 0, 1, 1]);
  });

  it('bins views by power of ten, zero only when there is one', () => {
    const { bins } = logBins([0, 5, 50, 5000, null]);
    expect(bins.map((b) => [b.label, b.count])).toEqual([
      ['0', 1],
      ['1+', 1],
      ['10+', 1],
      ['100+', 0],
      ['1K+', 1],
    ]);
    expect(logBins([1_200_000]).bins.at(-1)).toMatchObject({ label: '1M+', count: 1 });
    expect(logBins([3]).bins.map((b) => b.label)).toEqual(['1+']);
  });
});
