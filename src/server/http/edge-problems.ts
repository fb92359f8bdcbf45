import { maxHeaderSize, STATUS_CODES, type ServerResponse } from 'node:http';
import { statusOf } from '../../shared/problem-codes.ts';
import { problem, PROBLEM_CONTENT_TYPE, type ProblemCode } from '../../shared/problem.ts';
import { SECURITY_HEADERS } from './security-headers.ts';
import type { HeaderRecord } from './responses.ts';

// The answers the HTTP edge (http-server.ts) gives itself, for requests no route ever sees: a
// header section too large, bytes that are not HTTP, a client too slow, a missing or doubtful
// Host. They are the same RFC 9457 documents, with the same security headers, as every other
// answer (responses.ts). Node's own answers to these are a bare status line with no body and
// none of those headers.

export interface EdgeProblem {
  code: ProblemCode;
  detail: string;
  /** Beyond the ones every problem carries. */
  headers?: HeaderRecord;
}

function problemBody({ code, detail }: EdgeProblem): Buffer {
  return Buffer.from(JSON.stringify(problem(code, detail)));
}

/** The status the edge answers `edge` with: its code's. */
export const edgeStatus = (edge: EdgeProblem) => statusOf(edge.code);

function problemHeaders(edge: EdgeProblem, body: Buffer): HeaderRecord {
  return {
    ...SECURITY_HEADERS,
    'Content-Type': PROBLEM_CONTENT_TYPE,
    'Cache-Control': 'no-store',
    'Content-Length': String(body.length),
    ...edge.headers,
  };
}

/**
 * A complete HTTP/1.1 response as bytes, for a socket that has no ServerResponse to write
 * through (node's clientError and connect events). It closes the connection: after a parse
 * error or a timeout nothing more that arrives on it can be trusted to be a request.
 */
export function rawProblemResponse(
  edge: EdgeProblem,
  options: { headOnly?: boolean; now?: Date } = {},
): Buffer {
  const { headOnly = false, now = new Date() } = options;
  const body = problemBody(edge);
  const head = [
    `HTTP/1.1 ${edgeStatus(edge)} ${STATUS_CODES[edgeStatus(edge)] ?? 'Error'}`,
    `Date: ${now.toUTCString()}`,
    ...Object.entries(problemHeaders(edge, body)).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
  ];
  const headers = Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'latin1');
  // Content-Length still says what a GET would have received (RFC 9110 §8.6).
  return headOnly ? headers : Buffer.concat([headers, body]);
}

/** The same document through node's response (which leaves the body out for HEAD). */
export function sendProblem(res: ServerResponse, edge: EdgeProblem, options: { close: boolean }) {
  const body = problemBody(edge);
  const headers = problemHeaders(edge, body);
  if (options.close) headers.Connection = 'close';
  res.writeHead(edgeStatus(edge), headers);
  res.end(body);
}

/** A request cut off for taking too long, by node's timeouts or the socket's idle timeout. */
export const REQUEST_TIMEOUT: EdgeProblem = {
  code: 'request_timeout',
  detail: 'The request did not arrive in time; the connection is closed.',
};

/**
 * What to answer to an error node:http raises before the app has a request (its clientError
 * event), or null for nothing to answer: a reset or a broken pipe leaves no one to answer to.
 */
export function clientErrorProblem(
  error: Error & { code?: string; reason?: string },
): EdgeProblem | null {
  const code = error.code ?? '';
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return REQUEST_TIMEOUT;
  if (code === 'HPE_HEADER_OVERFLOW') {
    return {
      code: 'headers_too_large',
      detail: `The request's header section is larger than the ${Math.round(maxHeaderSize / 1024)} KB this server accepts.`,
    };
  }
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') {
    return {
      code: 'content_too_large',
      detail: 'The request body carries more chunk extensions than this server accepts.',
    };
  }
  if (code.startsWith('HPE_')) {
    // llhttp's reason is one of its own fixed phrases ("Invalid method encountered"), never
    // bytes from the request, so it can be shown.
    const reason = typeof error.reason === 'string' ? ` (${error.reason.replace(/\.$/, '')})` : '';
    return {
      code: 'bad_request',
      detail: `The request is not valid HTTP/1.1${reason}.`,
    };
  }
  return null;
}
