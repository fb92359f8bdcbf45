import type { MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import type { AppEnv, RequestLog } from '../http/app-env.ts';
import type { PageAnswer } from '../pages/page-entry.ts';

// One structured JSON line per request, for an operator to follow: never headers, never the
// query (continuations are long and say nothing), never a credential. Handlers fill in the
// route they took and where a page came from (`logAnswer`). Two doors write these lines: the
// Hono middleware below, and the fast path for cached pages (cached-page-fast-path.ts), which
// answers before Hono sees the request; both take their IDs from one `RequestLogger`, so IDs
// stay unique per process whichever door a request came through.

/** A request ID a client or a proxy may pass on: short and harmless in a log line. */
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/** What a request's line says. Fields left undefined are left out of the line. */
export interface RequestLine extends RequestLog {
  reqId: string;
  method: string;
  /** The path without the query. */
  path: string;
  status: number;
  /** Milliseconds from the request's arrival to its answer. */
  ms: number;
}

export interface RequestLogger {
  /** The request's ID: the one given in X-Request-Id when harmless, else the next of this process. */
  idFor(given: string | undefined): string;
  /** Whether lines are written at all; when not, nothing need be gathered for them. */
  enabled(): boolean;
  /** Writes a request's line (when enabled). */
  write(line: RequestLine): void;
}

export function createRequestLogger(logger: Logger): RequestLogger {
  const bootId = Date.now().toString(36);
  let requestCount = 0;
  return {
    idFor: (given) =>
      given !== undefined && REQUEST_ID_PATTERN.test(given) ? given : `${bootId}-${++requestCount}`,
    enabled: () => logger.isLevelEnabled('info'),
    write(line) {
      if (!logger.isLevelEnabled('info')) return;
      const {
        reqId,
        method,
        path,
        route,
        status,
        ms,
        cache,
        upstreamStatus,
        upstreamAttempts,
        render,
      } = line;
      // Fields in this order in every line, whichever door wrote it.
      logger.info(
        { reqId, method, path, route, status, ms, cache, upstreamStatus, upstreamAttempts, render },
        'request',
      );
    },
  };
}

/** Milliseconds since `started` (a `performance.now()`), to the microsecond. */
export const elapsedMs = (started: number) =>
  Math.round((performance.now() - started) * 1000) / 1000;

export function requestLog(requests: RequestLogger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const reqId = requests.idFor(c.req.header('x-request-id'));
    const log: RequestLog = { route: 'unmatched' };
    c.set('reqId', reqId);
    c.set('log', log);
    await next();
    if (!requests.enabled()) return;
    requests.write({
      reqId,
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: elapsedMs(started),
      ...log,
    });
  };
}

/** Notes on the request's log line where a page answer came from. */
export function logAnswer(log: RequestLog, answer: PageAnswer): void {
  log.cache = answer.cache;
  log.upstreamStatus = answer.upstreamStatus;
  log.upstreamAttempts = answer.attempts;
}
