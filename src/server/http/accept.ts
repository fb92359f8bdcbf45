// Which of two forms a client wants of an answer that has both: the HTML an app URL answers a
// browser with, or the problem document a script reads (RFC 9110 §12.5.1). Browsers name
// text/html when they navigate; a script that names neither, or only `*/*`, gets the problem
// document, which says the same in a form it can read.

/**
 * What an Accept or Accept-Encoding header names (media types, codings), lower-cased, with
 * their weights (`q`, 1 unless given; RFC 9110 §12.4.2).
 */
export function weights(header: string): Map<string, number> {
  const named = new Map<string, number>();
  for (const part of header.split(',')) {
    const [type, ...params] = part.trim().toLowerCase().split(';');
    if (!type) continue;
    let q = 1;
    for (const param of params) {
      const [key, value] = param.trim().split('=');
      if (key === 'q' && value !== undefined) q = Number(value);
    }
    named.set(type.trim(), Number.isFinite(q) ? q : 0);
  }
  return named;
}

/** Whether the client asks for HTML at least as much as for JSON. */
export function prefersHtml(header: string | undefined): boolean {
  if (header === undefined) return false;
  const named = weights(header);
  const weight = (...types: string[]) => Math.max(0, ...types.map((t) => named.get(t) ?? 0));
  const html = weight('text/html', 'application/xhtml+xml');
  return html > 0 && html >= weight('application/problem+json', 'application/json');
}
