import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import type { WireRequest } from './fuzz-case.ts';
import type { Outcome, WireResponse } from './http-exchange.ts';
import { liveMarkup, unescapedInJson } from './markup.ts';
import { WALKS_PER_CLIENT } from '../../shared/whole-list.ts';
import { statusOf, type ProblemCode } from '../../shared/problem-codes.ts';
import { ROUTER_PROBLEMS, type Operation } from '../../server/http/operation.ts';
import { API_OPERATIONS } from '../../server/routes/api-operations.ts';
import type { Expectation } from './oracle.ts';
import { LOOKUP_INPUT_PROBLEMS } from '../../server/http/validate-lookup.ts';

// The properties every answer of the explorer must have, whatever was asked. Each looks at one
// exchange (the request, what the oracle expects of it, the answer, the upstream calls it
// caused, what the explorer logged meanwhile) and says what is wrong, or nothing; each counts
// the cases it applied to and the violations it found.

export interface Exchange {
  request: WireRequest;
  expectation: Expectation;
  outcome: Outcome;
  /** The upstream requests (path and query) that arrived while the case ran. */
  upstreamCalls: string[];
  /** Error lines the explorer logged while the case ran. */
  errorLogs: string[];
  /**
   * Whole-list walks, for a case that may have started one: how many it left running once its
   * answer was read, and how many earlier cases had left running for this client before it.
   */
  walks?: { left: number; heldBefore: number };
}

/** What the properties know of the target (fuzz-target.ts). */
export interface Site {
  canaries: string[];
  servable: Set<string>;
  forbidden: Set<string>;
}

export interface Property {
  name: string;
  description: string;
  /** Violations, empty when the exchange has the property; null when it does not apply. */
  check(exchange: Exchange, response: WireResponse | null, site: Site): string[] | null;
}

/** Refusals of a lookup's input; `bad_request` when the request itself (its Host) was refused first. */
/** A lookup's input refusals, and the edge's own for a request it cannot parse. */
const INPUT_CODES = new Set<string>(['bad_request', ...LOOKUP_INPUT_PROBLEMS]);

const header = (headers: IncomingHttpHeaders, name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
};

const mediaType = (response: WireResponse) =>
  (header(response.headers, 'content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';

const isJsonType = (type: string) => type === 'application/json' || type.endsWith('+json');

const sha1 = (bytes: Buffer) => createHash('sha1').update(bytes).digest('hex');

function problemCode(response: WireResponse): unknown {
  try {
    return (JSON.parse(response.body?.toString('utf8') ?? '') as { code?: unknown }).code;
  } catch {
    return undefined;
  }
}

/** Problems with a body that claims to be a problem document. */
function problemDocumentFaults(response: WireResponse): string[] {
  if (mediaType(response) !== 'application/problem+json')
    return [
      `content type ${header(response.headers, 'content-type') ?? '(none)'}, not application/problem+json`,
    ];
  if (response.body === null || response.body.length === 0) return [];
  let document: unknown;
  try {
    document = JSON.parse(response.body.toString('utf8'));
  } catch {
    return ['problem body is not JSON'];
  }
  if (typeof document !== 'object' || document === null) return ['problem body is not an object'];
  const faults: string[] = [];
  const fields = document as Record<string, unknown>;
  for (const name of ['type', 'title', 'detail'] as const)
    if (typeof fields[name] !== 'string' || fields[name] === '')
      faults.push(`problem ${name} missing or empty`);
  if (fields.status !== response.status)
    faults.push(`problem status ${JSON.stringify(fields.status)} for HTTP ${response.status}`);
  return faults;
}

/**
 * Whether Accept-Encoding plainly refuses `coding`: it names neither the coding nor `*`, or
 * every entry that names it (else every `*`) carries a well-formed q=0. A malformed header
 * (`br;q=1e3br`, `gzip;q=abc`) may be read either way, so it never counts as a refusal.
 */
function refuses(acceptEncoding: string, coding: string): boolean {
  const entries = acceptEncoding.split(',').map((part) => {
    const [name = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    return { name, params };
  });
  const zero = (params: string[]) =>
    params.length === 1 && /^q=0(\.0{0,3})?$/.test(params[0] as string);
  const named = entries.filter((e) => e.name === coding);
  const stars = entries.filter((e) => e.name === '*');
  const relevant = named.length > 0 ? named : stars;
  return relevant.length === 0 || relevant.every((e) => zero(e.params));
}

/** What the HTTP edge may answer before any route runs (the document's `default`). */
const EDGE_CODES: ProblemCode[] = [
  'bad_request',
  'headers_too_large',
  'content_too_large',
  'request_timeout',
  'expectation_failed',
];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Each public operation with its path template as a pattern (a parameter: one segment's worth). */
const OPERATIONS = API_OPERATIONS.filter((op) => op.security === 'public').map((op) => ({
  op,
  pattern: new RegExp(
    `^${op.path
      .split(/\{[^}]+\}/)
      .map(escapeRegExp)
      .join('[^/]+')}$`,
  ),
}));

/** The operation a request's path names, read as it came or percent-decoded once. */
function operationFor(target: string): Operation<unknown> | undefined {
  const path = target.split(/[?#]/)[0] ?? '';
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Not percent-encoding: only the path as it came can match.
  }
  return OPERATIONS.find(({ pattern }) => pattern.test(path) || pattern.test(decoded))?.op;
}

/** Whether `status` (with `code`, for a problem) is among what `op` says it answers. */
function declared(op: Operation<unknown>, status: number, code: unknown): boolean {
  if (Object.hasOwn(op.answers, String(status))) return true;
  const codes = [...op.problems, ...ROUTER_PROBLEMS, ...EDGE_CODES].filter(
    (c) => statusOf(c) === status,
  );
  return code === undefined ? codes.length > 0 : codes.includes(code as ProblemCode);
}

const requestHeader = (request: WireRequest, name: string) =>
  request.headers.find(([n]) => n === name)?.[1];

export const PROPERTIES: Property[] = [
  {
    name: 'answered',
    description: 'every request gets an HTTP answer',
    check: ({ outcome }) => (outcome.ok ? [] : [`no answer: ${outcome.error}`]),
  },
  {
    name: 'no-5xx',
    description: 'never a 5xx (the upstream is healthy, so no mapped upstream failure either)',
    check: (_x, r) => (r === null ? null : r.status >= 500 ? [`status ${r.status}`] : []),
  },
  {
    name: 'api-problem-documents',
    description: 'errors under /api, and anything typed as one, are RFC 9457 problem documents',
    check: ({ expectation }, r) => {
      if (r === null) return null;
      const typed = mediaType(r) === 'application/problem+json';
      if (!(typed || (expectation.api && r.status >= 400))) return null;
      const faults = problemDocumentFaults(r);
      if (typed && r.status < 400) faults.push(`problem document with status ${r.status}`);
      return faults;
    },
  },
  {
    name: 'declared-answers',
    description:
      'an operation of the API answers only with the statuses and problem codes its row in the operation table declares',
    check: ({ request }, r) => {
      const op = r === null ? undefined : operationFor(request.target);
      if (r === null || op === undefined) return null;
      // A HEAD's answer has no body to name a code: its status says it all.
      const code =
        request.method === 'HEAD' || mediaType(r) !== 'application/problem+json'
          ? undefined
          : problemCode(r);
      return declared(op, r.status, code)
        ? []
        : [`${r.status}${code === undefined ? '' : ` ${String(code)}`} not declared by ${op.id}`];
    },
  },
  {
    name: 'no-upstream-for-invalid',
    description: 'no upstream call for input that cannot succeed, wrong methods or other paths',
    check: ({ expectation, upstreamCalls }) =>
      expectation.mayCallUpstream
        ? null
        : upstreamCalls.length === 0
          ? []
          : [`${upstreamCalls.length} upstream call(s): ${upstreamCalls.join(' ')}`],
  },
  {
    name: 'invalid-lookups-refused',
    description: "a lookup with invalid input gets a 400 with an input code (or the edge's 431)",
    check: ({ request, expectation }, r) => {
      if (r === null || expectation.lookup === null || expectation.lookup.valid) return null;
      // A HEAD's answer has no body to name a code: its status says it all.
      if (request.method === 'HEAD')
        return r.status === 400 || r.status === 431 ? [] : [`HEAD answered ${r.status}`];
      // The edge refuses a request line past its limit before any route sees it.
      if (r.status === 431)
        return problemCode(r) === 'headers_too_large' ? [] : ['431 without its code'];
      if (r.status !== 400) return [`status ${r.status} for an invalid lookup`];
      if (r.body === null || r.body.length === 0) return [];
      const code = problemCode(r);
      return typeof code === 'string' && INPUT_CODES.has(code)
        ? []
        : [`problem code ${String(code)}`];
    },
  },
  {
    name: 'invalid-whole-lists-refused',
    description:
      'a summary, walk, walk cost or export with invalid input gets its 404 or 400 problem, before any walk',
    check: ({ request, expectation }, r) => {
      const whole = expectation.wholeList;
      if (r === null || whole === null || whole.verdict !== 'invalid') return null;
      const statuses = new Set<number>(whole.refusals.map((x) => x.status));
      // A Host refused first (400 bad_request), a request line past the edge's limit (431).
      if (r.status === 431) return [];
      if (request.method === 'HEAD')
        return statuses.has(r.status) || r.status === 400
          ? []
          : [`HEAD answered ${r.status}, not ${[...statuses].join(' or ')}`];
      const code = problemCode(r);
      if (r.status === 400 && code === 'bad_request') return [];
      const fits = whole.refusals.some((x) => x.status === r.status && x.code === code);
      const wanted = whole.refusals.map((x) => `${x.status} ${x.code}`).join(' or ');
      return fits ? [] : [`${r.status} ${String(code)} for ${whole.route}, not ${wanted}`];
    },
  },
  {
    name: 'walks-released',
    description:
      'a whole-list answer read to its end leaves no walk running, and no walk is refused for walks the client is not running',
    check: ({ request, expectation, walks }, r) => {
      if (walks === undefined || expectation.wholeList === null) return null;
      const faults: string[] = [];
      if (walks.left > 0) faults.push(`${walks.left} walk(s) left running after the answer`);
      // Cases run one at a time and read every body: a client has no other walk running.
      if (r !== null && r.status === 429 && walks.heldBefore < WALKS_PER_CLIENT) {
        const code = request.method === 'HEAD' ? '(HEAD)' : String(problemCode(r));
        faults.push(`429 ${code} with ${walks.heldBefore} walk(s) held for this client`);
      }
      return faults;
    },
  },
  {
    name: 'nothing-echoed-unescaped',
    description:
      'generated markup never comes back live: not in HTML, not in headers; JSON always parses',
    check: (_x, r) => {
      if (r === null) return null;
      const faults: string[] = [];
      for (const [name, value] of Object.entries(r.headers)) {
        const live = liveMarkup(String(value));
        if (live !== null) faults.push(`header ${name}: ${live}`);
      }
      if (r.body !== null && r.body.length > 0) {
        const text = r.body.toString('utf8');
        if (isJsonType(mediaType(r))) {
          try {
            JSON.parse(text);
            const raw = unescapedInJson(text);
            if (raw !== null) faults.push(`JSON body: ${raw}`);
          } catch {
            faults.push('JSON body does not parse');
          }
        } else {
          const live = liveMarkup(text);
          if (live !== null) faults.push(`${mediaType(r) || 'untyped'} body: ${live}`);
        }
      }
      return faults;
    },
  },
  {
    name: 'confined-to-build',
    description: 'no file outside the built app (or a dotfile in it) is ever served',
    check: ({ expectation }, r, site) => {
      if (r === null || r.body === null || r.body.length === 0) return null;
      const faults: string[] = [];
      const text = r.body.toString('latin1');
      for (const canary of site.canaries)
        if (text.includes(canary)) faults.push(`canary ${canary} served`);
      const hash = sha1(r.body);
      if (site.forbidden.has(hash)) faults.push('a dotfile of the build served');
      const type = mediaType(r);
      // A whole list's export or walk (CSV, text, NDJSON) is made for the request, no file.
      const generated = expectation.wholeList !== null;
      if (
        r.status === 200 &&
        type !== 'text/html' &&
        !isJsonType(type) &&
        !generated &&
        !site.servable.has(hash)
      )
        faults.push(`${type || 'untyped'} body that is no file of the build`);
      return faults;
    },
  },
  {
    name: 'methods',
    description: 'only GET and HEAD are served: others get 405 with Allow; HEAD has no body',
    check: ({ request, expectation }, r) => {
      if (r === null) return null;
      if (request.method === 'HEAD')
        return r.raw.length === 0 ? [] : [`HEAD answered with ${r.raw.length} bytes`];
      // A target that is no URL is refused (400) before any method is looked at.
      if (expectation.read || expectation.url === null) return null;
      if (r.status === 400 && problemCode(r) === 'bad_request') return [];
      // Headers (request line included) over node's limit are refused before the method is.
      if (r.status === 431 && (request.method === 'HEAD' || problemCode(r) === 'headers_too_large'))
        return [];
      const faults: string[] = [];
      if (r.status !== 405) faults.push(`${request.method} answered ${r.status}`);
      const allow = header(r.headers, 'allow') ?? '';
      if (r.status === 405 && !(/\bGET\b/.test(allow) && /\bHEAD\b/.test(allow)))
        faults.push(`Allow: ${allow || '(none)'}`);
      return faults;
    },
  },
  {
    name: 'conditional-and-coding',
    description:
      '304 only for a matching If-None-Match, without a body; a content coding only when accepted, with Vary, and it decodes; no partial content',
    check: ({ request }, r) => {
      if (r === null) return null;
      const faults: string[] = [];
      if (r.decodeError !== null) faults.push(r.decodeError);
      const coding = header(r.headers, 'content-encoding');
      if (coding !== undefined) {
        if (refuses(requestHeader(request, 'accept-encoding') ?? '', coding.toLowerCase()))
          faults.push(
            `Content-Encoding ${coding} for Accept-Encoding ${JSON.stringify(requestHeader(request, 'accept-encoding'))}`,
          );
        if (!/accept-encoding/i.test(header(r.headers, 'vary') ?? ''))
          faults.push('encoded answer without Vary: Accept-Encoding');
      }
      if (r.status === 304) {
        const condition = requestHeader(request, 'if-none-match');
        const etag = header(r.headers, 'etag');
        if (condition === undefined) faults.push('304 without If-None-Match');
        else if (etag === undefined) faults.push('304 without ETag');
        else {
          const opaque = etag.replace(/^W\//, '').replace(/\.(br|gz)"$/, '"');
          const core = opaque.slice(1, -1);
          if (!condition.includes('*') && !condition.includes(core))
            faults.push(`304 for If-None-Match ${condition}, ETag ${etag}`);
        }
        if (r.raw.length > 0) faults.push('304 with a body');
      }
      if (r.status === 206) faults.push('206 Partial Content');
      return faults;
    },
  },
  {
    name: 'same-origin-redirects',
    description: 'a redirect goes to a path on this origin',
    check: (_x, r) => {
      if (r === null || r.status < 300 || r.status >= 400 || r.status === 304) return null;
      const location = header(r.headers, 'location');
      if (location === undefined) return [`${r.status} without Location`];
      return /^\/(?![/\\])/.test(location) ? [] : [`Location ${location}`];
    },
  },
  {
    name: 'security-headers',
    description: 'every answer carries the CSP and nosniff',
    check: (_x, r) => {
      if (r === null) return null;
      const faults: string[] = [];
      if (!/script-src 'self'/.test(header(r.headers, 'content-security-policy') ?? ''))
        faults.push('no CSP');
      if (header(r.headers, 'x-content-type-options') !== 'nosniff') faults.push('no nosniff');
      return faults;
    },
  },
  {
    name: 'no-error-logged',
    description: 'nothing the fuzzer sends makes the explorer log an error',
    check: ({ errorLogs }) => errorLogs.map((line) => `logged: ${line.slice(0, 300)}`),
  },
];

/**
 * Bugs the fuzzer found in code outside the boundary it may change, reported to their owners:
 * counted and shown in every report rather than failing every run, until they are fixed (then
 * their count drops to 0 and the entry goes).
 */
export interface KnownIssue {
  name: string;
  description: string;
  matches(exchange: Exchange, fault: string): boolean;
}

// What this fuzzer found so far is fixed, each where it was: a `//` path breaking the server
// render, a HEAD refused at the edge getting a body, `/channel/constructor` finding
// Object.prototype in the app's title map; in the whole-list routes, a HEAD of a walk or an
// export leaving its walk open for good, and an export whose pages add no text never answering.
export const KNOWN_ISSUES: KnownIssue[] = [];

export interface Tally {
  checked: number;
  violated: number;
}

/**
 * Every property's verdict on one exchange, counted into `tallies` when given; faults that are
 * known issues are counted under the issue's name in `known` and left out.
 */
export function violations(
  exchange: Exchange,
  site: Site,
  tallies?: Map<string, Tally>,
  known?: Map<string, number>,
): string[] {
  const response = exchange.outcome.ok ? exchange.outcome.response : null;
  const found: string[] = [];
  for (const property of PROPERTIES) {
    const all = property.check(exchange, response, site);
    if (all === null) continue;
    const faults = all.filter((fault) => {
      const issue = KNOWN_ISSUES.find((i) => i.matches(exchange, `${property.name}: ${fault}`));
      if (issue !== undefined) known?.set(issue.name, (known.get(issue.name) ?? 0) + 1);
      return issue === undefined;
    });
    const tally = tallies?.get(property.name);
    if (tally !== undefined) {
      tally.checked += 1;
      if (faults.length > 0) tally.violated += 1;
    }
    for (const fault of faults) found.push(`${property.name}: ${fault}`);
  }
  return found;
}
