import type { ErrorHandler } from 'hono';
import type { Logger } from 'pino';
import type { AppEnv } from './app-env.ts';
import { problemResponse } from './responses.ts';

// The last resort: a failure inside the explorer is logged with its stack, and the browser
// gets a 500 problem document that says nothing about the inside.

export function internalError(logger: Logger): ErrorHandler<AppEnv> {
  return (error, c) => {
    logger.error(
      {
        reqId: c.get('reqId'),
        path: c.req.path,
        err: { name: error.name, message: error.message, stack: error.stack },
      },
      'unhandled error',
    );
    return problemResponse('internal_error', 'The explorer failed to answer this request.', {
      instance: c.req.path,
    });
  };
}
