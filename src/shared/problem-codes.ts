import { WALKS_PER_CLIENT } from './whole-list.ts';

// Every problem code (spec §2.2), once: the status it answers with and what it means. The
// catalogue and the explorer server build their problem documents from it, the OpenAPI
// document groups each operation's codes by it and explains them with it, and the app reads
// only the type (its bundle never carries this table).

export interface ProblemCodeEntry {
  /** The status a problem with this code answers with. */
  status: number;
  /** What it means, for readers of the API's documentation. */
  meaning: string;
  /** Whether the answer says when to ask again (a Retry-After header and `retryAfter`). */
  retryAfter?: 'always' | 'sometimes';
}

export const PROBLEM_CODES = {
  // the caller's input
  invalid_id: {
    status: 400,
    meaning:
      'The ID does not have the shape this list takes (a playlist ID, or UC and 22 characters for a channel).',
  },
  missing_id: { status: 400, meaning: 'The `id` parameter is missing or empty.' },
  invalid_continuation: {
    status: 400,
    meaning: 'The continuation is malformed, too long, or not one this list handed out.',
  },
  repeated_parameter: { status: 400, meaning: 'A query parameter was given more than once.' },
  unknown_parameter: { status: 400, meaning: 'A query parameter this route does not take.' },
  invalid_request: {
    status: 400,
    meaning: 'The request asks for something this route cannot answer.',
  },
  invalid_range: {
    status: 400,
    meaning: 'A summary’s range is not two whole numbers from 1 with `from` no later than `to`.',
  },
  // the HTTP exchange itself, refused before any route sees it
  bad_request: { status: 400, meaning: 'The bytes received were not a valid HTTP request.' },
  headers_too_large: { status: 431, meaning: 'The request’s header section is too large.' },
  content_too_large: {
    status: 413,
    meaning: 'The request carried a body; the explorer only reads.',
  },
  request_timeout: { status: 408, meaning: 'The request did not arrive in time.' },
  expectation_failed: {
    status: 417,
    meaning: 'The request sent an Expect header the explorer does not meet.',
  },
  // what was asked for
  playlist_not_found: { status: 404, meaning: 'The catalogue has no playlist with this ID.' },
  channel_not_found: { status: 404, meaning: 'The catalogue has no channel with this ID.' },
  not_found: {
    status: 404,
    meaning: 'Nothing answers at this path, or the catalogue has no such item.',
  },
  job_not_done: {
    status: 409,
    meaning: 'The job has no result (yet, or any more): read the job to see where it is.',
    retryAfter: 'sometimes',
  },
  list_too_long: {
    status: 409,
    meaning:
      'The list is longer than a synchronous answer reads before it answers (its pages, its file’s size, or the time an answer may wait for its first byte), and nothing was sent: ask for it as a job (the problem’s `job` says how). The pages read so far stay in the explorer’s cache while fresh, so a job started soon after does not pay for them again.',
  },
  range_not_satisfiable: {
    status: 416,
    meaning: 'The byte range asked for lies outside the result.',
  },
  unsupported_format: {
    status: 501,
    meaning: 'The oEmbed format asked for is not one this provider answers (only `json` is).',
  },
  method_not_allowed: { status: 405, meaning: 'Only GET and HEAD are supported.' },
  // access and limits
  unauthorized: {
    status: 401,
    meaning: 'The route needs credentials or a bearer token that was not given.',
  },
  rate_limited: {
    status: 429,
    meaning: 'This client asked for too many new pages in a short time.',
    retryAfter: 'always',
  },
  quota_exhausted: {
    status: 429,
    meaning: 'The hour’s catalogue quota is spent, or cannot cover this walk.',
    retryAfter: 'always',
  },
  too_many_walks: {
    status: 429,
    meaning: `This client already reads ${WALKS_PER_CLIENT} whole lists at once.`,
    retryAfter: 'always',
  },
  share_exhausted: {
    status: 429,
    meaning:
      'This client has spent its share of the window’s catalogue quota, or what is left of it cannot cover this walk.',
    retryAfter: 'always',
  },
  walks_busy: {
    status: 503,
    meaning:
      'The server reads as many whole lists as it may at once; this walk waited in line for a while (its place is in `position`).',
    retryAfter: 'always',
  },
  shared_state_unavailable: {
    status: 503,
    meaning:
      'The deployment’s shared state in Redis cannot be reached: no walk can reserve its lookups, and jobs cannot be made or read.',
    retryAfter: 'always',
  },
  // the upstream, seen from the explorer server (a page held back after a recent failure
  // answers with its failure's code and says when to ask again)
  upstream_credentials_rejected: {
    status: 502,
    meaning: 'The catalogue rejected the explorer’s credentials; the operator must fix them.',
    retryAfter: 'sometimes',
  },
  upstream_error: {
    status: 502,
    meaning: 'The catalogue failed to answer.',
    retryAfter: 'sometimes',
  },
  upstream_bad_response: {
    status: 502,
    meaning: 'The catalogue sent an answer the explorer cannot use.',
    retryAfter: 'sometimes',
  },
  upstream_timeout: {
    status: 504,
    meaning: 'The catalogue did not answer in time.',
    retryAfter: 'sometimes',
  },
  upstream_unavailable: {
    status: 503,
    meaning: 'The catalogue cannot be reached, or has been failing and is being given a moment.',
    retryAfter: 'always',
  },
  upstream_rate_limited: {
    status: 429,
    meaning: 'The catalogue asked the explorer to slow down.',
    retryAfter: 'always',
  },
  // faults injected on purpose (their status is the fault's), and the last resort
  injected_fault: {
    status: 500,
    meaning:
      'A fault switched on for testing (the embedded catalogue only), with the status asked for.',
  },
  internal_error: {
    status: 500,
    meaning: 'The server failed to answer; nothing about the inside is said.',
  },
} as const satisfies Record<string, ProblemCodeEntry>;

export type ProblemCode = keyof typeof PROBLEM_CODES;

export const problemCodes = Object.keys(PROBLEM_CODES) as ProblemCode[];

/** The status a problem with `code` answers with. */
export const statusOf = (code: ProblemCode): number => PROBLEM_CODES[code].status;

export const isProblemCode = (code: string): code is ProblemCode =>
  Object.hasOwn(PROBLEM_CODES, code);
