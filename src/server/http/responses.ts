import { problem, PROBLEM_CONTENT_TYPE, type ProblemCode } from '../../shared/problem.ts';
import { SECURITY_HEADERS } from './security-headers.ts';

// Every response the explorer sends is built here, so every one carries the security headers
// (security-headers.ts) and errors are always the same RFC 9457 documents as the catalogue's
// (shared/problem.ts), never a stack trace. Plain header objects keep @hono/node-server on its
// fast path (no Headers instance per response).

export type HeaderRecord = Record<string, string>;

export const JSON_TYPE = 'application/json; charset=utf-8';
export const HTML_TYPE = 'text/html; charset=utf-8';

/**
 * A response as plain data, before it becomes a fetch `Response` (Hono) or goes straight to
 * node:http (the fast path for cached pages): one decision, two ways out.
 */
export interface Answer {
  status: number;
  /** Without the security headers: both ways out add them. */
  headers: HeaderRecord;
  body: Buffer | null;
}

/**
 * `headers` with the security headers every response carries; one of those given as '' is not
 * sent (an embed's X-Frame-Options).
 */
export const withSecurityHeaders = (headers: HeaderRecord): HeaderRecord => {
  const all = { ...SECURITY_HEADERS, ...headers };
  for (const name in SECURITY_HEADERS) if (all[name] === '') delete all[name];
  return all;
};

export function respond(
  status: number,
  body: Uint8Array | string | null,
  headers: HeaderRecord,
): Response {
  // A Buffer is a Uint8Array; the DOM typings want one backed by a plain ArrayBuffer.
  return new Response(body as BodyInit | null, { status, headers: withSecurityHeaders(headers) });
}

/** A problem document as a response, with the status its code answers with (problem-codes.ts). */
export function problemResponse(
  code: ProblemCode,
  detail: string,
  options: {
    instance?: string;
    retryAfterSeconds?: number;
    headers?: HeaderRecord;
    /** Members of the problem's own (RFC 9457 §3.2), e.g. what a refused walk would cost. */
    extensions?: Record<string, unknown>;
  } = {},
): Response {
  const { instance, retryAfterSeconds, headers = {}, extensions } = options;
  const body = {
    ...extensions,
    ...problem(code, detail, { instance, retryAfter: retryAfterSeconds }),
  };
  const problemHeaders: HeaderRecord = {
    'Content-Type': PROBLEM_CONTENT_TYPE,
    'Cache-Control': 'no-store',
  };
  if (retryAfterSeconds !== undefined) problemHeaders['Retry-After'] = String(retryAfterSeconds);
  return respond(body.status, JSON.stringify(body), { ...problemHeaders, ...headers });
}
