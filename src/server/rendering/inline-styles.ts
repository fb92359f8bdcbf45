import { createHash } from 'node:crypto';

// The built app's stylesheet goes inside each page, not beside it: a `<link rel="stylesheet">`
// holds the first paint until the file has arrived, one more round trip after the document (long
// on a phone's network), for a small file that compresses with the page anyway. The page's
// CSP allows no inline style, so each inlined stylesheet is allowed by its hash (CSP Level 2
// hash-source), which the page's own Content-Security-Policy header names.

export interface InlinedStyles {
  template: string;
  /** A CSP hash-source (`'sha256-…'`) for each `<style>` written in. */
  hashes: string[];
}

const STYLESHEET_LINK = /<link\b[^>]*\brel="stylesheet"[^>]*>/g;

/** A CSP hash-source for a style element's text. */
const hashSource = (css: string) => `'sha256-${createHash('sha256').update(css).digest('base64')}'`;

/** The hash-sources of the `<style>` elements in `html`, as a policy would name them. */
export const styleHashes = (html: string): string[] =>
  [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((match) => hashSource(match[1] ?? ''));

/**
 * `template` with each stylesheet link of this origin replaced by its file's text; `read` gives
 * a file by its URL path (undefined when there is none, and the link then stays).
 */
export function inlineStylesheets(
  template: string,
  read: (path: string) => string | undefined,
): InlinedStyles {
  const hashes: string[] = [];
  const inlined = template.replace(STYLESHEET_LINK, (link) => {
    const href = /\bhref="(\/[^"/][^"]*)"/.exec(link)?.[1];
    const css = href === undefined ? undefined : read(href);
    // A stylesheet that could end the element early stays a file.
    if (css === undefined || /<\/style/i.test(css)) return link;
    hashes.push(hashSource(css));
    return `<style>${css}</style>`;
  });
  return { template: inlined, hashes };
}
