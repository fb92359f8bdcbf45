import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './app-env.ts';
import { problemResponse } from './responses.ts';

// The explorer only reads: GET and HEAD exist, everything else is a 405 with Allow. Hono
// answers HEAD from the GET routes, without a body.

const ALLOW = 'GET, HEAD';

export const methodGuard: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
    c.get('log').route = 'method-not-allowed';
    return problemResponse(
      'method_not_allowed',
      `${c.req.method} is not supported here; use GET.`,
      { instance: c.req.path, headers: { Allow: ALLOW } },
    );
  }
  await next();
};
