import type { Handler, NotFoundHandler } from 'hono';
import type { AppEnv } from '../http/app-env.ts';
import { problemResponse } from '../http/responses.ts';

// Paths nobody answers. Under /api/ that is always a JSON problem: a script calling a lookup
// that does not exist should never receive the app's HTML.

export const unknownApi: Handler<AppEnv> = (c) => {
  c.get('log').route = 'api:unknown';
  return problemResponse('not_found', `No such API: ${c.req.path}`, { instance: c.req.path });
};

export const notFound: NotFoundHandler<AppEnv> = (c) =>
  problemResponse('not_found', `Nothing here: ${c.req.path}`, { instance: c.req.path });
