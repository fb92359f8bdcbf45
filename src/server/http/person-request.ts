import type { IncomingHttpHeaders } from 'node:http';

// Whether a request comes from a person reading a list, for chain warming
// (warming/chain-warmer.ts: it spends quota on a guess about what someone will read next, so it
// is done only for someone who is reading) and for how long a view waits for its first page
// (routes/app-pages.ts: a person is shown the view at once; a crawler waits for the rows). What tells a person from a link preview, a crawler or a script is
// what a browser alone sends: the Fetch Metadata headers (`Sec-Fetch-*`). A browser sets them
// itself and a page's scripts cannot (they are forbidden header names), while link unfurlers
// (Slack, Discord, X, Facebook, iMessage's server side), crawlers' HTTP clients and curl send
// none. So:
//
// - an app view is a person when a browser navigates a tab to it (`Sec-Fetch-Mode: navigate`,
//   `Sec-Fetch-Dest: document`; not a frame, whose embedding the app refuses anyway);
// - a lookup is a person when the app's own scripts ask for it (`Sec-Fetch-Site: same-origin`,
//   `Sec-Fetch-Dest: empty`): the page was opened in a browser and its code runs.
//
// Never a person: HEAD (a checker, not a reader); a speculative load (`Sec-Purpose` or
// `Purpose: prefetch`, link prefetch and prerender: nobody has opened the page yet); a
// user agent that names itself a bot, crawler, preview fetcher or audit tool (headless
// browsers that crawl say so: Googlebot, Bingbot; Lighthouse audits a page, nobody reads it).
// A browser too old to send Fetch Metadata (before 2023 for Safari) gets no warming, only the
// chain as it was. A script that forges the headers gets what a person gets, within the
// warming's share of the quota and one list per client (chain-warmer.ts).

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
