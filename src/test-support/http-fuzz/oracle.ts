import { endpointNames, endpoints, type EndpointName } from '../../shared/endpoints.ts';
import {
  CHANNEL_ID_PATTERN,
  CONTINUATION_MAX_LENGTH,
  PLAYLIST_ID_PATTERN,
} from '../../shared/id-patterns.ts';
import { exportFormats, WHOLE_LIST_PATHS } from '../../shared/whole-list.ts';
import type { WireRequest } from './fuzz-case.ts';

// What the explorer should do with a request, worked out from the interface as documented
// (README, docs/catalogue-api.md) rather than from the explorer's own code, so that a mistake
// there is not repeated here: which requests fall under /api, which reach a lookup and whether
// its input is valid, and which may cost an upstream call at all. Where the URL could be read
// two ways, the oracle allows the upstream call ("may") and never demands it.

export interface Expectation {
  /** The URL as a browser's URL parser reads the target; null when it is not one. */
  url: URL | null;
  /** The path is /api or under /api/: every error must be a problem document. */
  api: boolean;
  /** GET or HEAD, the only methods the explorer serves. */
  read: boolean;
  /** The lookup the request reaches for certain, with the verdict on its query. */
  lookup: { endpoint: EndpointName; valid: boolean } | null;
  /** The whole-list route the request reaches (a GET or HEAD of its path's shape), judged. */
  wholeList: WholeListExpectation | null;
  /** Whether the explorer may call the upstream for it (never required: the cache may answer). */
  mayCallUpstream: boolean;
}

const ENDPOINT_BY_PATH = new Map<string, EndpointName>(
  endpointNames.map((name) => [endpoints[name].path, name]),
);

function decodeComponent(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

function decodePath(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

function parseTarget(target: string): URL | null {
  if (/^https?:\/\//i.test(target)) return URL.parse(target);
  if (!target.startsWith('/')) return null;
  return URL.parse(target, 'http://fuzz.invalid');
}

const ID_PATTERN: Record<EndpointName, RegExp> = {
  playlist: PLAYLIST_ID_PATTERN,
  'channel-videos': CHANNEL_ID_PATTERN,
  'channel-playlists': CHANNEL_ID_PATTERN,
};

/**
 * A lookup's query as the interface defines it: `id` (required, of the endpoint's shape) and
 * `continuation` (optional; empty means the first page; else 1 to 4,096 printable ASCII
 * characters), each at most once, nothing else; percent-decoded, with `+` read as itself.
 */
export function validLookupQuery(endpoint: EndpointName, rawQuery: string): boolean {
  const seen = new Map<string, string>();
  for (const part of rawQuery.split('&')) {
    if (part === '') continue;
    const equals = part.indexOf('=');
    const name = decodeComponent(equals === -1 ? part : part.slice(0, equals));
    const value = decodeComponent(equals === -1 ? '' : part.slice(equals + 1));
    if (name === null || value === null) return false;
    if (name !== 'id' && name !== 'continuation') return false;
    if (seen.has(name)) return false;
    seen.set(name, value);
  }
  const id = seen.get('id');
  if (id === undefined || !ID_PATTERN[endpoint].test(id)) return false;
  const continuation = seen.get('continuation') ?? '';
  return (
    continuation === '' ||
    (continuation.length <= CONTINUATION_MAX_LENGTH && /^[\x21-\x7E]+$/.test(continuation))
  );
}

const LIST_ROUTES: Array<[RegExp, RegExp]> = [
  [/^\/playlist\/([^/]+)\/?$/, PLAYLIST_ID_PATTERN],
  [/^\/channel\/([^/]+)(?:\/videos|\/playlists)?\/?$/, CHANNEL_ID_PATTERN],
];

/** An app page whose view shows a list with an ID of the right shape: its first page is fetched. */
function showsList(path: string): boolean {
  for (const [route, pattern] of LIST_ROUTES) {
    const match = route.exec(path);
    const id = match?.[1] === undefined ? null : decodeComponent(match[1]);
    if (id !== null && pattern.test(id)) return true;
  }
  return false;
}

export function expectationFor(request: WireRequest): Expectation {
  const url = parseTarget(request.target);
  const read = request.method === 'GET' || request.method === 'HEAD';
  if (url === null)
    return { url, api: false, read, lookup: null, wholeList: null, mayCallUpstream: false };
  const path = url.pathname;
  // Routers may match the path percent-decoded (`/api/v1/%70laylist`): either reading counts.
  const paths = [path, decodePath(path)];
  const api = paths.some((p) => p === '/api' || p.startsWith('/api/'));
  const endpoint = paths.map((p) => ENDPOINT_BY_PATH.get(p)).find((e) => e !== undefined);
  const lookup =
    endpoint === undefined || !read
      ? null
      : { endpoint, valid: validLookupQuery(endpoint, url.search.slice(1)) };
  const wholeList = read ? wholeListExpectation(url) : null;
  const mayCallUpstream =
    read &&
    (lookup?.valid === true ||
      paths.some(showsList) ||
      (wholeList !== null && wholeList.verdict !== 'invalid'));
  return { url, api, read, lookup, wholeList, mayCallUpstream };
}

// ——— whole lists ———
// The summary, walk-cost, walk and export routes as docs/whole-lists.md and the shared contract
// (src/shared/whole-list.ts) define them: a known list kind and export extension (else 404), an
// ID of the kind's shape, only the parameters the route takes, each once, and a valid range
// (else 400). Only a request that passes them all may start a walk, and so call upstream. Where
// the input can be read more than one way (a segment decoded more than once, a number JavaScript
// reads leniently, a repeated bound the contract leaves open, an empty name), the verdict is
// `either`: it allows the upstream call and demands nothing.

export type WholeListRoute = 'summary' | 'cost' | 'walk' | 'export';
export type Verdict = 'valid' | 'either' | 'invalid';

export interface WholeListExpectation {
  route: WholeListRoute;
  verdict: Verdict;
  /**
   * When the verdict is `invalid`: the refusals that fit, one for each part of the input that is
   * invalid or may be read so (the order the parts are checked in is not defined).
   */
  refusals: Array<{ status: 400 | 404; code: string }>;
  /** The list kinds and IDs it may walk (for the run's figures), when not invalid. */
  targets: Array<{ list: EndpointName; id: string }>;
}

const ROUTE_BY_SEGMENT = new Map<string, WholeListRoute>(
  (['summary', 'cost', 'walk', 'export'] as const).map((route) => [
    WHOLE_LIST_PATHS[route].slice('/api/'.length),
    route,
  ]),
);

/** Decodes every well-formed escape and leaves the rest, as a lenient router does. */
function decodeLeniently(text: string, decode: (t: string) => string): string {
  try {
    return decode(text);
  } catch {
    return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
      try {
        return decode(run);
      } catch {
        return run;
      }
    });
  }
}

/** A text as it is, and percent-decoded up to `times` times over (strictly and leniently). */
function readings(text: string, times = 3): Set<string> {
  const out = new Set([text]);
  let layer = new Set([text]);
  for (let i = 0; i < times; i++) {
    const next = new Set<string>();
    for (const t of layer) {
      if (!t.includes('%')) continue;
      next.add(decodeLeniently(t, decodeURIComponent));
      const strict = decodeComponent(t);
      if (strict !== null) next.add(strict);
    }
    for (const t of next) out.add(t);
    layer = next;
  }
  return out;
}

const worst = (verdicts: Verdict[]): Verdict =>
  verdicts.includes('invalid') ? 'invalid' : verdicts.includes('either') ? 'either' : 'valid';

/** The best a set of readings allows: valid when the plain reading is, either when another is. */
function best(plain: boolean, any: boolean): Verdict {
  return plain ? 'valid' : any ? 'either' : 'invalid';
}

/** A range bound: a whole number from 1, written plainly; else how it may be read. */
function bound(text: string): { verdict: Verdict; value: number | null } {
  if (/^[1-9][0-9]*$/.test(text)) {
    const value = Number(text);
    return Number.isSafeInteger(value) ? { verdict: 'valid', value } : { verdict: 'either', value };
  }
  // Number() reads hex, exponents, blanks, `2.0`, `01`: a lenient reader may take them.
  const lenient = Number(text);
  if (text.trim() !== '' && Number.isInteger(lenient) && lenient >= 1)
    return { verdict: 'either', value: lenient };
  return { verdict: 'invalid', value: null };
}

interface QueryPart {
  /** Null: the name or value is not well-formed percent-encoding. */
  name: string | null;
  value: string | null;
}

function queryParts(rawQuery: string): QueryPart[] {
  return rawQuery
    .split('&')
    .filter((part) => part !== '')
    .map((part) => {
      const equals = part.indexOf('=');
      return {
        name: decodeComponent(equals === -1 ? part : part.slice(0, equals)),
        value: decodeComponent(equals === -1 ? '' : part.slice(equals + 1)),
      };
    });
}

/** A summary's query: `from` and `to`, nothing else. */
function rangeVerdict(rawQuery: string): { verdict: Verdict; codes: string[] } {
  const parts = queryParts(rawQuery);
  const codes: string[] = [];
  const verdicts: Verdict[] = [];
  const values = new Map<string, number[]>();
  const plainValues = new Map<string, number>();
  for (const { name, value } of parts) {
    // `+` is a space to a form reader, itself to others: neither spells `from` or `to`.
    if (name === null || (name !== 'from' && name !== 'to' && name !== '')) {
      codes.push('unknown_parameter');
      verdicts.push('invalid');
      continue;
    }
    if (name === '') {
      codes.push('unknown_parameter');
      verdicts.push('either');
      continue;
    }
    const read = value === null ? { verdict: 'invalid' as const, value: null } : bound(value);
    if (read.verdict !== 'valid') codes.push('invalid_range');
    verdicts.push(read.verdict);
    if (read.value !== null) values.set(name, [...(values.get(name) ?? []), read.value]);
    if (read.verdict === 'valid' && read.value !== null) plainValues.set(name, read.value);
  }
  const counts = (name: string) => parts.filter((p) => p.name === name).length;
  if (counts('from') > 1 || counts('to') > 1) {
    // A bound given twice is refused (server/http/query.ts), as is an unknown name: whichever
    // the query names first is the answer.
    return { verdict: 'invalid', codes: ['unknown_parameter', 'repeated_parameter'] };
  }
  const from = values.get('from')?.[0];
  const to = values.get('to')?.[0];
  if (from !== undefined && to !== undefined && from > to) {
    const plain = plainValues.has('from') && plainValues.has('to');
    verdicts.push(plain ? 'invalid' : 'either');
    codes.push('invalid_range');
  }
  return { verdict: worst(verdicts), codes };
}

/** An export's query: none at all. */
function noParameters(rawQuery: string): Verdict {
  const parts = rawQuery.split('&').filter((part) => part !== '');
  if (parts.length === 0) return 'valid';
  return parts.some((part) => !part.startsWith('=')) ? 'invalid' : 'either';
}

const isListKind = (text: string): text is EndpointName =>
  (endpointNames as readonly string[]).includes(text);

/** `/api/{route}/{list}/{id}` of a path (as sent, or as a router decodes it), or null. */
function wholeListPath(path: string): { route: WholeListRoute; list: string; last: string } | null {
  const segments = path.split('/');
  if (segments.length !== 5 || segments[0] !== '' || segments[1] !== 'api') return null;
  const [, , routeSegment = '', list = '', last = ''] = segments;
  const route = ROUTE_BY_SEGMENT.get(routeSegment);
  if (route === undefined || list === '' || last === '') return null;
  return { route, list, last };
}

function judgeWholeList(
  route: WholeListRoute,
  listSegment: string,
  lastSegment: string,
  rawQuery: string,
): WholeListExpectation {
  const refusals: WholeListExpectation['refusals'] = [];
  const verdicts: Verdict[] = [];
  const targets: WholeListExpectation['targets'] = [];

  const kinds = [...readings(listSegment)].filter(isListKind);
  const kindVerdict = best(isListKind(listSegment), kinds.length > 0);
  if (kindVerdict !== 'valid') refusals.push({ status: 404, code: 'not_found' });
  verdicts.push(kindVerdict);

  // An export's last segment is the ID and the extension: as sent, or decoded (`%2Ecsv`).
  let idTexts: Array<{ text: string; plain: boolean }> = [{ text: lastSegment, plain: true }];
  if (route === 'export') {
    idTexts = [];
    for (const file of readings(lastSegment)) {
      const dot = file.lastIndexOf('.');
      if (dot > 0 && (exportFormats as readonly string[]).includes(file.slice(dot + 1)))
        idTexts.push({ text: file.slice(0, dot), plain: file === lastSegment });
    }
    const extVerdict = best(
      idTexts.some((t) => t.plain),
      idTexts.length > 0,
    );
    if (extVerdict !== 'valid') refusals.push({ status: 404, code: 'not_found' });
    verdicts.push(extVerdict);
  }

  // The ID, decoded once as a path parameter is; other readings only make it `either`.
  const candidates = kinds.length > 0 ? kinds : [...endpointNames];
  let plainId = false;
  let anyId = false;
  for (const { text, plain } of idTexts) {
    const once = decodeComponent(text);
    for (const id of readings(text)) {
      for (const kind of candidates) {
        if (!ID_PATTERN[kind].test(id)) continue;
        anyId = true;
        if (plain && id === once && isListKind(listSegment) && kind === listSegment) plainId = true;
        if (kinds.includes(kind) && !targets.some((t) => t.list === kind && t.id === id))
          targets.push({ list: kind, id });
      }
    }
  }
  const idVerdict = best(plainId, anyId);
  if (idVerdict !== 'valid') refusals.push({ status: 400, code: 'invalid_id' });
  verdicts.push(idVerdict);

  if (route === 'summary') {
    const range = rangeVerdict(rawQuery);
    verdicts.push(range.verdict);
    for (const code of new Set(range.codes)) refusals.push({ status: 400, code });
  } else if (route === 'export') {
    const query = noParameters(rawQuery);
    verdicts.push(query);
    if (query !== 'valid') refusals.push({ status: 400, code: 'unknown_parameter' });
  }
  // Walks and their costs take no parameters the contract names, and none it refuses.

  const verdict = worst(verdicts);
  return { route, verdict, refusals: verdict === 'invalid' ? refusals : [], targets };
}

/**
 * The whole-list route a URL reaches, judged; null when its path is not of that shape in any
 * reading. When two readings of the path both reach one, the more permissive verdict stands.
 */
export function wholeListExpectation(url: URL): WholeListExpectation | null {
  const path = url.pathname;
  const shapes = [path, decodePath(path), decodeLeniently(path, decodeURI)]
    .map(wholeListPath)
    .filter((shape) => shape !== null);
  if (shapes.length === 0) return null;
  const judged = shapes.map((s) => judgeWholeList(s.route, s.list, s.last, url.search.slice(1)));
  const rank: Record<Verdict, number> = { valid: 2, either: 1, invalid: 0 };
  const chosen = judged.reduce((a, b) => (rank[b.verdict] > rank[a.verdict] ? b : a));
  // Readings that disagree on the route or its verdict leave nothing certain.
  const agreed = judged.every((j) => j.route === chosen.route && j.verdict === chosen.verdict);
  if (!agreed && chosen.verdict === 'valid') return { ...chosen, verdict: 'either' };
  if (!agreed)
    return {
      ...chosen,
      refusals: [
        ...new Map(
          judged.flatMap((j) => j.refusals).map((r) => [`${r.status} ${r.code}`, r]),
        ).values(),
      ],
    };
  return chosen;
}
