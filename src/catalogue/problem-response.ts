import type { Context } from 'hono';
import { problem, PROBLEM_CONTENT_TYPE, type ProblemCode } from '../shared/problem.ts';

/**
 * Answers with an RFC 9457 problem document (spec §2.2), with the code's own status unless an
 * injected fault asks for another. A Retry-After header is mirrored in the body's `retryAfter`,
 * so a client that reads only the body still knows how long to wait.
 */
export function problemResponse(
  c: Context,
  code: ProblemCode,
  detail: string,
  options: { status?: number; headers?: Record<string, string> } = {},
): Response {
  const { headers = {} } = options;
  const retryAfter = headers['Retry-After'];
  const body = problem(code, detail, {
    status: options.status,
    instance: c.req.path,
    retryAfter: retryAfter === undefined ? undefined : Number(retryAfter),
  });
  return new Response(JSON.stringify(body), {
    status: body.status,
    headers: { 'Content-Type': PROBLEM_CONTENT_TYPE, 'Cache-Control': 'no-store', ...headers },
  });
}
