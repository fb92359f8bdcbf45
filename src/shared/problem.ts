import { z } from 'zod';

// Error bodies are RFC 9457 problem documents with a stable machine-readable `code` (spec
// §2.2), the same from the catalogue and from the explorer server, so the app can say what
// happened.

export const problemCodes = [
  // caller's input
  'invalid_id',
  'missing_id',
  'invalid_continuation',
  'repeated_parameter',
  'unknown_parameter',
  'invalid_request',
  'invalid_range',
  // the HTTP exchange itself, refused before any route sees it
  'bad_request',
  'headers_too_large',
  'content_too_large',
  'request_timeout',
  'expectation_failed',
  // lookups
  'playlist_not_found',
  'channel_not_found',
  'not_found',
  'method_not_allowed',
  // access and limits
  'unauthorized',
  'rate_limited',
  'quota_exhausted',
  'too_many_walks',
  // the upstream, seen from the explorer server
  'upstream_credentials_rejected',
  'upstream_error',
  'upstream_bad_response',
  'upstream_timeout',
  'upstream_unavailable',
  'upstream_rate_limited',
  // faults injected on purpose, and the last resort
  'injected_fault',
  'internal_error',
] as const;

export type ProblemCode = (typeof problemCodes)[number];

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export const problemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int().min(400).max(599),
  detail: z.string(),
  code: z.enum(problemCodes).or(z.string()),
  instance: z.string().optional(),
  /** Seconds to wait before retrying; mirrors the Retry-After header on 429 and 503. */
  retryAfter: z.number().int().nonnegative().optional(),
});

export type Problem = z.infer<typeof problemSchema>;

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Content Too Large',
  417: 'Expectation Failed',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** Builds a problem document; `type` is a stable URI per code (RFC 9457 §3.1.1). */
export function problem(
  status: number,
  code: ProblemCode,
  detail: string,
  extra: { instance?: string; retryAfter?: number } = {},
): Problem {
  return {
    type: `https://catalogue-explorer.dev/problems/${code.replaceAll('_', '-')}`,
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    code,
    ...extra,
  };
}
