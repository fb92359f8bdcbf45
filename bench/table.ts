// The benchmark table: each figure beside its reference measured in the same run, the ratio,
// the target and whether it is met.

export interface BenchRow {
  bench: string;
  measure: string;
  figure: string;
  reference: string;
  ratio: string;
  target: string;
  /** null: not judged (no target, or the reference tool is absent). */
  met: boolean | null;
  /** With `--repeat N`: the spread of the row's key figure over the repeats, and how many met. */
  repeats?: string;
}

/** The table; with `runs`, a last column naming the run each row comes from. */
export function renderTable(rows: readonly BenchRow[], runs?: readonly string[]): string {
  const header = [
    '#',
    'measure',
    'measured',
    'reference (same run)',
    'ratio',
    'target',
    'met',
    'spread of repeats',
  ];
  if (runs) header.push('run');
  const lines = rows.map((r, i) => [
    r.bench,
    r.measure,
    r.figure,
    r.reference,
    r.ratio,
    r.target,
    r.met === null ? '–' : r.met ? 'yes' : 'NO',
    r.repeats ?? 'one run',
    ...(runs ? [runs[i] ?? '–'] : []),
  ]);
  const escape = (cell: string) => cell.replaceAll('|', '\\|');
  return [header, header.map(() => '---'), ...lines]
    .map((cells) => `| ${cells.map(escape).join(' | ')} |`)
    .join('\n');
}
