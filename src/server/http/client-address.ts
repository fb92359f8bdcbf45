import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import type { Context } from 'hono';
import type { AppEnv } from './app-env.ts';

// Who is asking, for the per-client allowances (client-rate-limit.ts), turns (client-turns.ts)
// and chain warming: the socket's peer, or, behind a reverse proxy the operator trusts, the
// address that proxy saw. Only an IP address is taken from the header: anything else there
// (a proxy that passes on what the client wrote) would let a script be a new client with every
// request, and never meet its allowance; then the socket's peer (the proxy) is the client.

function clientAddressOf(
  forwardedFor: string | string[] | undefined,
  socketAddress: string | undefined,
  trustProxy: boolean,
): string {
  if (trustProxy && forwardedFor !== undefined) {
    // The nearest proxy appends the address it saw; earlier entries are the client's say-so.
    const joined = Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor;
    const last = joined.split(',').at(-1)?.trim() ?? '';
    if (isIP(last) !== 0) return last.toLowerCase();
  }
  return socketAddress ?? 'local';
}

/** The client of a request as node:http gives it (for parts in front of the app). */
export function requestClient(request: IncomingMessage | undefined, trustProxy: boolean): string {
  return clientAddressOf(
    request?.headers['x-forwarded-for'],
    request?.socket?.remoteAddress,
    trustProxy,
  );
}

export function clientAddress(c: Context<AppEnv>, trustProxy: boolean): string {
  return clientAddressOf(
    c.req.header('x-forwarded-for'),
    c.env?.incoming?.socket?.remoteAddress,
    trustProxy,
  );
}
