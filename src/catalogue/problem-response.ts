import type { Context } from 'hono';
import { problem, PROBLEM_CONTENT_TYPE, type ProblemCode } from '../shared/problem.ts';

/**
 * Answers with an RFC 9457 problem document (spec §2.2). A Retry-After header is mirrored in
 * the body's `retryAfter`, so a client that reads only the body still knows how long to wait.
 */
export function problemResponse(
  c: Context,
  status: 400 | 401 | 404 | 405 | 429 | 500 | 503,
  code: ProblemCode,
  detail: string,
  headers: Record<string, string> = {},
): Response {
  const retryAfter = headers['Retry-After'];
  const body = problem(status, code, detail, {
    instance: c.req.path,
    retryAfter: retryAfter === undefined ? undefined : Number(retryAfter),
  });
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': PROBLEM_CONTENT_TYPE, 'Cache-Control': 'no-store', ...headers },
  });
}
