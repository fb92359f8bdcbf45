import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBLEM_CONTENT_TYPE, problemSchema } from '../../shared/problem.ts';
import {
  piecesOf,
  rawExchange,
  startExplorerProcess,
  type ExplorerProcess,
  type RawResponse,
} from '../../test-support/raw-http.ts';
import { readServerConfig } from '../config.ts';
import { checkingIntervalMs } from './http-server.ts';
import { SECURITY_HEADERS } from '../http/security-headers.ts';

// The HTTP edge as clients meet it: `node src/server/index.ts` in a child process, spoken to
// over raw sockets. Slow and idle clients are cut off at the configured timeouts (short ones
// here), and everything node refuses before the app sees a request is answered with a problem
// document and the security headers.

const TIMEOUTS = { headers: 2_000, request: 3_000, keepAlive: 1_000, idle: 1_500 };
/** Node's checking interval for these timeouts: a cut comes at most this late. */
const CHECK_MS = checkingIntervalMs({
  headersMs: TIMEOUTS.headers,
  requestMs: TIMEOUTS.request,
  keepAliveMs: TIMEOUTS.keepAlive,
  idleMs: TIMEOUTS.idle,
});
/** Node's margin past the advertised keep-alive timeout (http.Server keepAliveTimeoutBuffer). */
const KEEP_ALIVE_MARGIN_MS = 1_000;
/** What a loaded two-core machine may add to any of these. */
const SLACK_MS = 1_500;

let explorer: ExplorerProcess;

beforeAll(async () => {
  explorer = await startExplorerProcess({
    HTTP_HEADERS_TIMEOUT_MS: String(TIMEOUTS.headers),
    HTTP_REQUEST_TIMEOUT_MS: String(TIMEOUTS.request),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: String(TIMEOUTS.keepAlive),
    HTTP_IDLE_TIMEOUT_MS: String(TIMEOUTS.idle),
    UPSTREAM_TIMEOUT_MS: '1000',
    LOG_LEVEL: 'info',
  });
});

afterAll(async () => {
  await explorer.dispose();
});

function expectProblem(response: RawResponse | undefined, status: number, code: string) {
  expect(response?.status).toBe(status);
  const { headers, body } = response as RawResponse;
  expect(headers['content-type']).toBe(PROBLEM_CONTENT_TYPE);
  expect(headers['cache-control']).toBe('no-store');
  expect(Number(headers['content-length'])).toBe(body.length);
  for (const [name, value] of Object.entries(SECURITY_HEADERS))
    expect(headers[name.toLowerCase()]).toBe(value);
  const document = problemSchema.parse(JSON.parse(body.toString()));
  expect(document).toMatchObject({ status, code });
  return document;
}

describe('the HTTP edge: timeouts of its own', () => {
  it('by default, a slow or idle client is closed within 30 s', () => {
    const { http } = readServerConfig({});
    const check = checkingIntervalMs(http);
    expect(check).toBeLessThanOrEqual(1_000);
    expect(http.headersMs + check).toBeLessThanOrEqual(30_000);
    expect(http.requestMs + check).toBeLessThanOrEqual(30_000);
    expect(http.keepAliveMs + KEEP_ALIVE_MARGIN_MS).toBeLessThanOrEqual(30_000);
    expect(http.idleMs).toBeLessThanOrEqual(30_000);
  });

  it('headers trickling in get a 408 problem and the connection is closed at the headers timeout', async () => {
    const request = `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ${'a'.repeat(200)}\r\n\r\n`;
    // A byte every 50 ms keeps the socket busy (no idle timeout) and takes 12 s in all.
    const { responses, closedAfterMs, error } = await rawExchange(
      explorer.port,
      piecesOf(request),
      { gapMs: 50, waitMs: 10_000 },
    );
    expect(error).toBeNull();
    expect(responses).toHaveLength(1);
    expectProblem(responses[0], 408, 'request_timeout');
    expect(responses[0]?.headers.connection).toBe('close');
    expect(closedAfterMs).toBeGreaterThanOrEqual(TIMEOUTS.headers - 100);
    expect(closedAfterMs).toBeLessThanOrEqual(TIMEOUTS.headers + CHECK_MS + SLACK_MS);
    console.info(`[edge] trickling headers closed after ${Math.round(closedAfterMs ?? 0)} ms`);
  });

  it('a body trickling in is cut off at the request timeout', async () => {
    const head = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n';
    const { responses, closedAfterMs } = await rawExchange(
      explorer.port,
      [head, ...piecesOf('b'.repeat(1000))],
      { gapMs: 50, waitMs: 10_000 },
    );
    // The app answered at once (it reads no body); the rest of the body is what is cut off,
    // with no second answer on top of the first.
    expect(responses.map((r) => r.status)).toEqual([200]);
    expect(closedAfterMs).toBeGreaterThanOrEqual(TIMEOUTS.request - 100);
    expect(closedAfterMs).toBeLessThanOrEqual(TIMEOUTS.request + CHECK_MS + SLACK_MS);
    console.info(`[edge] trickling body cut off after ${Math.round(closedAfterMs ?? 0)} ms`);
  });

  it('a request that stops halfway gets a 408 problem at the idle timeout', async () => {
    const { responses, closedAfterMs, error } = await rawExchange(
      explorer.port,
      ['GET /healthz HTTP/1.1\r\nHo'],
      { waitMs: 10_000 },
    );
    expect(error).toBeNull();
    expect(responses).toHaveLength(1);
    expectProblem(responses[0], 408, 'request_timeout');
    expect(closedAfterMs).toBeGreaterThanOrEqual(TIMEOUTS.idle - 100);
    expect(closedAfterMs).toBeLessThanOrEqual(TIMEOUTS.idle + SLACK_MS);
  });

  it('a connection that never says anything is closed at the idle timeout, unanswered', async () => {
    const { responses, closedAfterMs, error } = await rawExchange(explorer.port, [], {
      waitMs: 10_000,
    });
    expect(error).toBeNull();
    expect(responses).toHaveLength(0);
    expect(closedAfterMs).toBeGreaterThanOrEqual(TIMEOUTS.idle - 100);
    expect(closedAfterMs).toBeLessThanOrEqual(TIMEOUTS.idle + SLACK_MS);
  });

  it('an idle keep-alive connection is closed after the keep-alive timeout', async () => {
    const { responses, closedAfterMs, error } = await rawExchange(
      explorer.port,
      ['GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
      { waitMs: 10_000 },
    );
    expect(error).toBeNull();
    expect(responses.map((r) => r.status)).toEqual([200]);
    expect(responses[0]?.headers['keep-alive']).toBe(`timeout=${TIMEOUTS.keepAlive / 1000}`);
    expect(closedAfterMs).toBeGreaterThanOrEqual(TIMEOUTS.keepAlive - 100);
    expect(closedAfterMs).toBeLessThanOrEqual(TIMEOUTS.keepAlive + KEEP_ALIVE_MARGIN_MS + SLACK_MS);
  });

  it('so is one whose last request had a body that came after its head, with no 408 on top', async () => {
    const head = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 5\r\n\r\n';
    const { responses, closedAfterMs, error } = await rawExchange(explorer.port, [head, 'hello'], {
      gapMs: 100,
      waitMs: 10_000,
    });
    expect(error).toBeNull();
    expect(responses.map((r) => r.status)).toEqual([200]);
    expect(closedAfterMs).toBeGreaterThanOrEqual(TIMEOUTS.keepAlive - 100);
    expect(closedAfterMs).toBeLessThanOrEqual(
      100 + TIMEOUTS.keepAlive + KEEP_ALIVE_MARGIN_MS + SLACK_MS,
    );
  });
});

describe('the HTTP edge: every answer is a problem document', () => {
  it('20 KB of headers: 431, and the client sees the answer, not a reset', async () => {
    const request = `GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Pad: ${'a'.repeat(20 * 1024)}\r\n\r\n`;
    const { responses, closedAfterMs, error } = await rawExchange(explorer.port, [request]);
    expect(error).toBeNull();
    expect(responses).toHaveLength(1);
    expectProblem(responses[0], 431, 'headers_too_large');
    expect(responses[0]?.headers.connection).toBe('close');
    expect(closedAfterMs).not.toBeNull();
  });

  it.each([
    ['a NUL in the request line', 'GET /\0 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
    ['a bare CR in the request line', 'GET / HTTP/1.1\rHost: 127.0.0.1\r\n\r\n'],
    ['a bare CR in a header', 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: b\rc\r\n\r\n'],
    ['a header name with a space', 'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX A: b\r\n\r\n'],
    ['no HTTP at all', 'hello\r\n\r\n'],
  ])('%s: 400', async (_name, request) => {
    const { responses, closedAfterMs, error } = await rawExchange(explorer.port, [request]);
    expect(error).toBeNull();
    expect(responses).toHaveLength(1);
    expectProblem(responses[0], 400, 'bad_request');
    expect(responses[0]?.headers.connection).toBe('close');
    expect(closedAfterMs).not.toBeNull();
  });

  it.each([
    ['no Host', 'GET /healthz HTTP/1.1\r\n\r\n'],
    ['two Hosts', 'GET /healthz HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\n\r\n'],
    ['a Host with userinfo', 'GET /healthz HTTP/1.1\r\nHost: user@a.example\r\n\r\n'],
    ['a Host with a space', 'GET /healthz HTTP/1.1\r\nHost: a example\r\n\r\n'],
    ['a Host with a path', 'GET /healthz HTTP/1.1\r\nHost: a.example/x\r\n\r\n'],
    ['an empty Host', 'GET /healthz HTTP/1.1\r\nHost:\r\n\r\n'],
    // Valid by RFC 3986, refused by the app's URL parsing (the adapter's error handler).
    ['a percent-encoded Host', 'GET /healthz HTTP/1.1\r\nHost: %41\r\n\r\n'],
  ])('%s: 400', async (_name, request) => {
    const { responses } = await rawExchange(explorer.port, [request], { responses: 1 });
    expect(responses).toHaveLength(1);
    expectProblem(responses[0], 400, 'bad_request');
  });

  it('a backslash in the path (refused by the app adapter): 400', async () => {
    const { responses } = await rawExchange(
      explorer.port,
      ['GET /a\\b HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'],
      { responses: 1 },
    );
    expectProblem(responses[0], 400, 'bad_request');
  });

  it('HTTP/1.0 may leave Host out', async () => {
    const { responses } = await rawExchange(explorer.port, ['GET /healthz HTTP/1.0\r\n\r\n']);
    // The app needs a host for its URLs; without one it says so, as a problem document.
    expect(responses).toHaveLength(1);
    expectProblem(responses[0], 400, 'bad_request');
  });

  it('CONNECT: 405 with Allow; an unknown Expect: 417', async () => {
    const connect = await rawExchange(explorer.port, [
      'CONNECT a.example:443 HTTP/1.1\r\nHost: a.example:443\r\n\r\n',
    ]);
    expectProblem(connect.responses[0], 405, 'method_not_allowed');
    expect(connect.responses[0]?.headers.allow).toBe('GET, HEAD');
    const expectation = await rawExchange(
      explorer.port,
      ['GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nExpect: a-pony\r\n\r\n'],
      { responses: 1 },
    );
    expectProblem(expectation.responses[0], 417, 'expectation_failed');
  });

  it('an ordinary request still goes through, on a connection kept alive', async () => {
    const request = 'GET /healthz HTTP/1.1\r\nHost: localhost:8080\r\n\r\n';
    const { responses } = await rawExchange(explorer.port, [request, request], {
      gapMs: 50,
      waitMs: 500,
    });
    expect(responses.map((r) => r.status)).toEqual([200, 200]);
    expect(responses[1]?.headers.connection).toBe('keep-alive');
  });

  it('says in its log what it refused, without the request', () => {
    const refused = explorer.logLines().filter((l) => l.msg === 'request refused at the edge');
    expect(refused.map((l) => l.status)).toEqual(expect.arrayContaining([400, 408, 431]));
  });
});
