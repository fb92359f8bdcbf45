// Figures from noisy, shared machines: medians with min–max over rounds, never a single
// absolute time, so that one unlucky moment neither passes nor fails a target.

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

export const median = (values: readonly number[]) => percentile(values, 50);

export interface Spread {
  median: number;
  min: number;
  max: number;
}

export function spread(values: readonly number[]): Spread {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

/** "1,234 (1,100–1,300)" with the given digits. */
export function formatSpread(s: Spread, digits = 0, unit = ''): string {
  const f = (n: number) =>
    n.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
  return `${f(s.median)}${unit} (${f(s.min)}–${f(s.max)})`;
}
