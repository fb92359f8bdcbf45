import { escapeHtml } from '../rendering/preview-text.ts';
// What the upstream's values may become in a feed. Feed readers act on what a feed carries: they
// fetch its images, open its links, and many render its RSS descriptions as HTML without
// sanitising them. Two rules, applied by every format's writer (feed-documents.ts):
// - a URL goes out only as an absolute http(s) URL; anything else (`javascript:`, `data:`,
//   `file:`, a string no URL parser reads) is dropped, never passed through as it came;
// - text that a reader takes as HTML (RSS's `<description>`, whose content the RSS 2.0
//   specification calls "entity-encoded HTML") is written as HTML that shows the text itself:
//   `<img …>` in a description is seen as those characters, never as an element.

const WEB_PROTOCOLS = new Set(['http:', 'https:']);

/**
 * `url` made absolute against `origin` (the catalogue's thumbnails are root-relative, spec
 * §2.5), or null unless the result is an http(s) URL.
 */
export function webUrl(url: string, origin: string): string | null {
  const parsed = URL.parse(url, origin);
  return parsed !== null && WEB_PROTOCOLS.has(parsed.protocol) ? parsed.href : null;
}

/** Whether `url` may be a feed's URL once made absolute (a relative URL may). */
export function isWebUrl(url: string): boolean {
  const parsed = URL.parse(url, 'http://relative.invalid');
  return parsed !== null && WEB_PROTOCOLS.has(parsed.protocol);
}

/**
 * Text as HTML that shows exactly that text (the XML writer then escapes it once more): the
 * link previews' own escaping.
 */
export const htmlOfText = escapeHtml;
