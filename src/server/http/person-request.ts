import type { IncomingHttpHeaders } from 'node:http';

// Whether a request comes from a person reading a list: only then is a chain warmed
// (warming/chain-warmer.ts) and a view shown before its first page (routes/app-pages.ts). A
// person is told apart by what a browser alone sends, the Fetch Metadata headers, which a page's
// scripts cannot set and unfurlers, crawlers and curl do not send: a view is a person's when a
// tab navigates to it, a lookup when the app's own scripts ask. Never a person: anything but GET,
// a prefetch or prerender, a user agent that names itself a bot, crawler, preview or audit tool.
// See docs/decisions/0004-person-requests-by-fetch-metadata.md.

export type PersonRequestKind = 'view' | 'lookup';

/** User agents that say they are not a person reading. */
const NOT_A_PERSON =
  /bot\b|crawl|spider|slurp|preview|facebookexternalhit|embedly|lighthouse|pagespeed/i;

const one = (value: string | string[] | undefined) => (typeof value === 'string' ? value : '');

export function isPersonRequest(
  method: string | undefined,
  headers: IncomingHttpHeaders,
  kind: PersonRequestKind,
): boolean {
  if (method !== 'GET') return false;
  if (headers['sec-purpose'] !== undefined || /prefetch|prerender/i.test(one(headers.purpose)))
    return false;
  if (NOT_A_PERSON.test(one(headers['user-agent']))) return false;
  const mode = one(headers['sec-fetch-mode']);
  const dest = one(headers['sec-fetch-dest']);
  if (kind === 'view') return mode === 'navigate' && dest === 'document';
  return one(headers['sec-fetch-site']) === 'same-origin' && dest === 'empty';
}
