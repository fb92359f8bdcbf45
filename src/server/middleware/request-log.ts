import type { MiddlewareHandler } from 'hono';
import type { Logger } from 'pino';
import type { AppEnv, RequestLog } from '../app-env.ts';
import type { PageAnswer } from '../page-source.ts';

// One structured JSON line per request, for an operator to follow: never headers, never the
// query (continuations are long and say nothing), never a credential. Handlers fill in the
// route they took and where a page came from (`logAnswer`).

/** A request ID a client or a proxy may pass on: short and harmless in a log line. */
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

export function requestLog(logger: Logger): MiddlewareHandler<AppEnv> {
  const bootId = Date.now().toString(36);
  let requestCount = 0;
  return async (c, next) => {
    const started = performance.now();
    const given = c.req.header('x-request-id');
    const reqId =
      given !== undefined && REQUEST_ID_PATTERN.test(given) ? given : `${bootId}-${++requestCount}`;
    const log: RequestLog = { route: 'unmatched' };
    c.set('reqId', reqId);
    c.set('log', log);
    await next();
    if (!logger.isLevelEnabled('info')) return;
    // Fields left undefined are left out of the line.
    logger.info(
      {
        reqId,
        method: c.req.method,
        path: c.req.path,
        route: log.route,
        status: c.res.status,
        ms: Math.round((performance.now() - started) * 1000) / 1000,
        cache: log.cache,
        upstreamStatus: log.upstreamStatus,
        upstreamAttempts: log.upstreamAttempts,
      },
      'request',
    );
  };
}

/** Notes on the request's log line where a page answer came from. */
export function logAnswer(log: RequestLog, answer: PageAnswer): void {
  log.cache = answer.cache;
  log.upstreamStatus = answer.upstreamStatus;
  log.upstreamAttempts = answer.attempts;
}
