import type { Handler, MiddlewareHandler } from 'hono';
import { JOBS_PATH } from '../../shared/jobs.ts';
import type { AppEnv } from './app-env.ts';
import { problemResponse } from './responses.ts';

// The explorer reads: GET and HEAD exist everywhere, and everything else is a 405 with Allow,
// but for the jobs whole-list work runs as, which a client makes (POST) and ends (DELETE):
// those two reach the jobs' paths, where the router answers a method a path lacks with its own
// 405 (methodNotAllowed). Hono answers HEAD from the GET routes, without a body.

const ALLOW = 'GET, HEAD';

const underJobs = (path: string) => path === JOBS_PATH || path.startsWith(`${JOBS_PATH}/`);

/** A 405 naming the methods `allow` lists. */
export const methodNotAllowed =
  (allow: string): Handler<AppEnv> =>
  (c) => {
    c.get('log').route = 'method-not-allowed';
    return problemResponse('method_not_allowed', `${c.req.method} is not supported here.`, {
      instance: c.req.path,
      headers: { Allow: allow },
    });
  };

export const methodGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  const { method } = c.req;
  const written = (method === 'POST' || method === 'DELETE') && underJobs(c.req.path);
  if (method !== 'GET' && method !== 'HEAD' && !written) {
    c.get('log').route = 'method-not-allowed';
    return problemResponse(
      'method_not_allowed',
      `${c.req.method} is not supported here; use GET.`,
      { instance: c.req.path, headers: { Allow: ALLOW } },
    );
  }
  await next();
};
