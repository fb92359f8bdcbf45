// Text for link previews: every string in them comes from somewhere else (the upstream's
// titles and descriptions, the request's URL), so each is cleaned and escaped here before it
// goes into HTML. Titles hold any script and emoji (spec §3.4): those pass through untouched,
// as UTF-8.

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Safe in element text and in a quoted attribute value alike. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] as string);
}

/**
 * One line of text: control characters and runs of white space become one space, and lone
 * surrogates (half an emoji) become U+FFFD rather than bytes that are not UTF-8.
 */
export function oneLine(text: string): string {
  return text
    .toWellFormed()
    .replace(/[\s\p{Cc}]+/gu, ' ')
    .trim();
}

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/**
 * `text` on one line and at most about `max` characters: cut at the last word boundary before
 * the limit, ending with "…" (as the catalogue cuts its snippets, spec §3.4). A text with no
 * space late enough is cut between characters as a reader sees them, so an emoji made of
 * several code points is never split.
 */
export function truncate(text: string, max: number): string {
  const line = oneLine(text);
  if (line.length <= max) return line;
  const space = line.lastIndexOf(' ', max);
  let cut: string;
  if (space >= max * 0.6) {
    cut = line.slice(0, space);
  } else {
    cut = '';
    for (const { segment } of graphemes.segment(line)) {
      if (cut.length + segment.length > max) break;
      cut += segment;
    }
  }
  // "word,…" reads worse than "word…".
  return `${cut.replace(/[\s.,;:!?\-–—]+$/, '')}…`;
}

const counts = new Intl.NumberFormat('en-US');

/** "1 video", "5,000 videos". */
export function countOf(n: number, one: string, many: string): string {
  return `${counts.format(n)} ${n === 1 ? one : many}`;
}

/** "2,345". */
export function formatCount(n: number): string {
  return counts.format(n);
}
