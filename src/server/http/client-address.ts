import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import type { AppEnv } from './app-env.ts';

// Who is asking, for the per-client allowances (client-rate-limit.ts) and turns
// (client-turns.ts): the socket's peer, or, behind a reverse proxy the operator trusts, the
// address that proxy saw.

/** The client of a request as node:http gives it. */
export function requestClient(request: IncomingMessage | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    // The nearest proxy appends the address it saw; earlier entries are the client's say-so.
    const header = request?.headers['x-forwarded-for'];
    const last = (Array.isArray(header) ? header.join(',') : header)?.split(',').at(-1)?.trim();
    if (last) return last;
  }
  return request?.socket?.remoteAddress ?? 'local';
}

export function clientAddress(c: Context<AppEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    const last = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (last) return last;
  }
  return c.env?.incoming?.socket?.remoteAddress ?? 'local';
}
