import { z } from 'zod';
import { statusOf, type ProblemCode } from './problem-codes.ts';

// Error bodies are RFC 9457 problem documents with a stable machine-readable `code` (spec
// §2.2), the same from the catalogue and from the explorer server, so the app can say what
// happened. Each code's status and meaning are in problem-codes.ts.

export type { ProblemCode } from './problem-codes.ts';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export const problemSchema = z.object({
  type: z.string(),
  title: z.string(),
  status: z.number().int().min(400).max(599),
  detail: z.string(),
  /** One of problem-codes.ts's codes; a client reads any other as a failure it cannot name. */
  code: z.string(),
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
  409: 'Conflict',
  413: 'Content Too Large',
  416: 'Range Not Satisfiable',
  417: 'Expectation Failed',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/**
 * Builds a problem document; `type` is a stable URI per code (RFC 9457 §3.1.1), the status the
 * code's own unless a fault injected on purpose asks for another.
 */
export function problem(
  code: ProblemCode,
  detail: string,
  extra: { status?: number; instance?: string; retryAfter?: number } = {},
): Problem {
  const { status = statusOf(code), ...rest } = extra;
  return {
    type: `https://catalogue-explorer.dev/problems/${code.replaceAll('_', '-')}`,
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    code,
    ...rest,
  };
}
