import type { RequestListener } from 'node:http';
import { getRequestListener, RequestError } from '@hono/node-server';
import type { FastPath } from '../pages/cached-page-fast-path.ts';
import { problemResponse } from '../http/responses.ts';
import { requestClient } from '../http/client-address.ts';
import type { ClientTurns } from '../http/client-turns.ts';

// The explorer as node:http serves it: a request goes to the fast path for cached pages
// first, which answers a fresh hit itself and hands everything else to the Hono app through
// @hono/node-server's adapter, each client's requests in their turn (client-turns.ts), so that
// one client's many connections cannot keep another's one request waiting. (The fast path's
// answers are a few dozen microseconds each, the least a turn would save.)

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
  turns?: { turns: ClientTurns; trustProxy: boolean },
): RequestListener {
  const viaApp = getRequestListener(app.fetch, { errorHandler: adapterError });
  if (turns === undefined) return (req, res) => fastPath(req, res, viaApp);
  const inTurn: RequestListener = (req, res) =>
    turns.turns.take(requestClient(req, turns.trustProxy), () => void viaApp(req, res));
  return (req, res) => fastPath(req, res, inTurn);
}
