import type { RequestListener } from 'node:http';
import { getRequestListener, RequestError } from '@hono/node-server';
import type { FastPath } from '../pages/cached-page-fast-path.ts';
import { problemResponse } from '../http/responses.ts';

// The explorer as node:http serves it: a request goes to the fast path for cached pages
// first, which answers a fresh hit itself and hands everything else to the Hono app through
// @hono/node-server's adapter.

/**
 * The adapter's answer when it cannot make a Request of what node received (a Host or URL
 * that does not parse, a backslash in the path): a problem document, where its own is a bare
 * 400 without the security headers. Its messages are fixed phrases, never the request's bytes.
 */
function adapterError(error: unknown): Response {
  if (error instanceof RequestError) {
    return problemResponse('bad_request', `The request's URL cannot be read: ${error.message}.`);
  }
  return problemResponse('internal_error', 'The request could not be handled.');
}

export function explorerListener(
  app: { fetch: Parameters<typeof getRequestListener>[0] },
  fastPath: FastPath,
): RequestListener {
  const viaApp = getRequestListener(app.fetch, { errorHandler: adapterError });
  return (req, res) => fastPath(req, res, viaApp);
}
