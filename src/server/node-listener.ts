import type { RequestListener } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import type { FastPath } from './cached-page-fast-path.ts';

// The explorer as node:http serves it: a request goes to the fast path for cached pages
// first, which answers a fresh hit itself and hands everything else to the Hono app through
// @hono/node-server's adapter.

export function explorerListener(
  app: { fetch: Parameters<typeof getRequestListener>[0] },
  fastPath: FastPath,
): RequestListener {
  const viaApp = getRequestListener(app.fetch);
  return (req, res) => fastPath(req, res, viaApp);
}
