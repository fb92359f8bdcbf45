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

const HEADER = [
  '#',
  'measure',
  'measured',
  'reference (same run)',
  'ratio',
  'target',
  'met',
  'spread of repeats',
];

const metCell = (row: BenchRow) => (row.met === null ? '–' : row.met ? 'yes' : 'NO');
const escape = (cell: string) => cell.replaceAll('|', '\\|').replaceAll('\n', ' ');
const markdown = (lines: readonly (readonly string[])[]) =>
  lines.map((cells) => `| ${cells.map(escape).join(' | ')} |`).join('\n');

/** The table; with `runs`, a last column naming the run each row comes from. */
export function renderTable(rows: readonly BenchRow[], runs?: readonly string[]): string {
  const header = runs ? [...HEADER, 'run'] : HEADER;
  const lines = rows.map((r, i) => [
    r.bench,
    r.measure,
    r.figure,
    r.reference,
    r.ratio,
    r.target,
    metCell(r),
    r.repeats ?? 'one run',
    ...(runs ? [runs[i] ?? '–'] : []),
  ]);
  return markdown([header, header.map(() => '---'), ...lines]);
}

// The page's table is for reading: with every row's measure and reference whole, its lines ran
// to hundreds of characters and the page to many times what anyone reads. So the page shortens
// those two wordy cells (never a measured figure, a ratio or a target), says where it left text
// out, and the JSON beside it keeps every row whole.

/** About the longest a measure is on the page, without the conditions it ran under. */
const MEASURE_CHARS = 48;
/** About the longest a reference is on the page. */
const REFERENCE_CHARS = 36;
/** Where a shortened cell left text out. */
export const ELIDED = '…';

/** The top-level "( … )" groups of a text, as [start, end) pairs. */
function parentheses(text: string): Array<[number, number]> {
  const groups: Array<[number, number]> = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '(') {
      if (depth === 0) start = i;
      depth++;
    } else if (text[i] === ')' && depth > 0) {
      depth--;
      if (depth === 0) groups.push([start, i + 1]);
    }
  }
  return groups;
}

/**
 * A text of about `max` characters that keeps its first and last words, the last taking up to
 * `tailShare` of it: a reference ends with its figure, a measure often with what it times to
 * ("→ first contentful paint"), so cutting either end would lose what tells two rows apart. The
 * kept end never starts inside a figure ("ms (658–1,158)" keeps the number before it).
 */
export function clipMiddle(text: string, max: number, tailShare = 0.5): string {
  if (text.length <= max) return text;
  const words = text.split(' ');
  const tail: string[] = [words.pop()!];
  while (words.length > 0 && [words.at(-1), ...tail].join(' ').length <= max * tailShare)
    tail.unshift(words.pop()!);
  const number = /^[-+]?\d/;
  while (words.length > 0 && !number.test(tail[0]!) && number.test(words.at(-1)!))
    tail.unshift(words.pop()!);
  const head: string[] = [];
  const room = max - tail.join(' ').length - ELIDED.length - 2;
  for (const word of words) {
    if ([...head, word].join(' ').length > room) break;
    head.push(word);
  }
  const start = head.join(' ').replace(/[,;:]$/, '');
  return start ? `${start} ${ELIDED} ${tail.join(' ')}` : `${ELIDED} ${tail.join(' ')}`;
}

const ASIDE = `(${ELIDED})`;

/** The text with its asides in parentheses taken out, longest first, until it fits `max`. */
function withoutAsides(text: string, max: number): string {
  let short = text;
  while (short.length > max) {
    const longest = parentheses(short)
      .filter(([start, end]) => short.slice(start, end) !== ASIDE)
      .sort((a, b) => b[1] - b[0] - (a[1] - a[0]))[0];
    if (!longest) break;
    short = `${short.slice(0, longest[0])}${ASIDE}${short.slice(longest[1])}`;
  }
  return short;
}

/** A measure as what it measures and the conditions it ran under ("[remote-like]"), if any. */
function splitMeasure(measure: string): { body: string; conditions: string } {
  const tag = /\s*(\[[^\]]*\])$/.exec(measure);
  return tag
    ? { body: measure.slice(0, tag.index), conditions: tag[1]! }
    : { body: measure, conditions: '' };
}

/** Longer limits a measure is tried at when its short form would be taken for another's. */
const MEASURE_LIMITS = [MEASURE_CHARS, MEASURE_CHARS * 1.5, MEASURE_CHARS * 2, Infinity];

/**
 * How the page names each row's measure: asides in parentheses go first, longest first, each
 * leaving "(…)", then the middle; the conditions stay whole. A bench's measures that differ
 * other than in their asides never share a short form: those rows get a longer one.
 */
export function pageMeasures(
  rows: readonly BenchRow[],
): Array<{ what: string; conditions: string }> {
  const split = rows.map((row) => splitMeasure(row.measure));
  // What a measure says without any of its asides: two that differ only there are one measure
  // under other conditions ("long tasks (> 50 ms)" at full speed, "(> 100 ms)" slowed).
  const plain = split.map(({ body }) => withoutAsides(body, 0));
  const level = rows.map(() => 0);
  const whatOf = (i: number) => {
    const limit = MEASURE_LIMITS[level[i]!]!;
    return clipMiddle(withoutAsides(split[i]!.body, limit), limit);
  };
  for (let round = 1; round < MEASURE_LIMITS.length; round++) {
    const taken = new Map<string, Set<string>>();
    rows.forEach((row, i) => {
      const key = `${row.bench}\n${whatOf(i)}`;
      taken.set(key, (taken.get(key) ?? new Set()).add(plain[i]!));
    });
    const clashing = rows
      .map((_, i) => i)
      .filter((i) => taken.get(`${rows[i]!.bench}\n${whatOf(i)}`)!.size > 1);
    if (clashing.length === 0) break;
    for (const i of clashing) level[i] = round;
  }
  return rows.map((_, i) => ({ what: whatOf(i), conditions: split[i]!.conditions }));
}

/** Stands for the text of the cell above, within one bench. */
export const DITTO = '〃';
/** Cells this long or shorter are repeated rather than dittoed. */
const DITTO_FROM = 12;

/**
 * The page's table: every row's figures and whether it met its target, each bench's rows
 * together, with the bench and the run named on its first row. Rows of one measure under other
 * conditions follow it, so that they can be compared at a glance, and a measure, reference or
 * target the same as the row above's shows as "〃".
 */
export function renderPageTable(rows: readonly (BenchRow & { run: string })[]): string {
  const header = [...HEADER.slice(0, 3), 'reference', ...HEADER.slice(4, 7), 'spread', 'run'];
  const measures = pageMeasures(rows);
  const shown = rows.map((row, i) => ({
    row,
    ...measures[i]!,
    reference: clipMiddle(row.reference, REFERENCE_CHARS, 0.75),
  }));
  const benches = [...new Set(rows.map((r) => r.bench))];
  const ordered = benches.flatMap((bench) => {
    const own = shown.filter((s) => s.row.bench === bench);
    const measures = [...new Set(own.map((s) => s.what))];
    return measures.flatMap((what) => own.filter((s) => s.what === what));
  });
  const lines = ordered.map(({ row, what, conditions, reference }, i) => {
    const above = ordered[i - 1];
    const first = above?.row.bench !== row.bench || above.row.run !== row.run;
    // Short cells ("–", "≤ 1.2×") stay as they are: a ditto would save little and read worse.
    const ditto = (text: string, before: string | undefined) =>
      above?.row.bench === row.bench && text === before && text.length > DITTO_FROM ? DITTO : text;
    return [
      first ? row.bench : '',
      `${above?.row.bench === row.bench && above.what === what ? DITTO : what} ${conditions}`.trim(),
      row.figure,
      ditto(reference, above?.reference),
      row.ratio,
      ditto(row.target, above?.row.target),
      row.met === false ? '**NO**' : metCell(row),
      row.repeats ?? '–',
      first ? row.run : '',
    ];
  });
  return markdown([header, header.map(() => '---'), ...lines]);
}
