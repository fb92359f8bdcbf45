import type { Context } from 'hono';
import type { AppEnv } from './app-env.ts';

// Who is asking, for the per-client allowance (client-rate-limit.ts): the socket's peer, or,
// behind a reverse proxy the operator trusts, the address that proxy saw.

export function clientAddress(c: Context<AppEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    // The nearest proxy appends the address it saw; earlier entries are the client's say-so.
    const last = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (last) return last;
  }
  return c.env?.incoming?.socket?.remoteAddress ?? 'local';
}
