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
}

export function renderTable(rows: readonly BenchRow[]): string {
  const header = ['#', 'measure', 'measured', 'reference (same run)', 'ratio', 'target', 'met'];
  const lines = rows.map((r) => [
    r.bench,
    r.measure,
    r.figure,
    r.reference,
    r.ratio,
    r.target,
    r.met === null ? '–' : r.met ? 'yes' : 'NO',
  ]);
  const escape = (cell: string) => cell.replaceAll('|', '\\|');
  return [header, header.map(() => '---'), ...lines]
    .map((cells) => `| ${cells.map(escape).join(' | ')} |`)
    .join('\n');
}
