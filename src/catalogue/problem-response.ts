import type { Context } from 'hono';
import { problem, PROBLEM_CONTENT_TYPE, type ProblemCode } from '../shared/problem.ts';

/** Answers with an RFC 9457 problem document (issue #2, "Errors"). */
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
    ...(retryAfter === undefined ? {} : { retryAfter: Number(retryAfter) }),
  });
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': PROBLEM_CONTENT_TYPE, 'Cache-Control': 'no-store', ...headers },
  });
}
