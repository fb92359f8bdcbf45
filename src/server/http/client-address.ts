import type { Context } from 'hono';
import type { AppEnv } from './app-env.ts';

// Who is asking, for the per-client allowance (client-rate-limit.ts): the socket's peer, or,
// behind a reverse proxy the operator trusts, the address that proxy saw.

/** The client's address from what node:http received (for parts in front of the app). */
export function clientAddressOf(
  forwardedFor: string | string[] | undefined,
  socketAddress: string | undefined,
  trustProxy: boolean,
): string {
  if (trustProxy && typeof forwardedFor === 'string') {
    // The nearest proxy appends the address it saw; earlier entries are the client's say-so.
    const last = forwardedFor.split(',').at(-1)?.trim();
    if (last) return last;
  }
  return socketAddress ?? 'local';
}

export function clientAddress(c: Context<AppEnv>, trustProxy: boolean): string {
  return clientAddressOf(
    c.req.header('x-forwarded-for'),
    c.env?.incoming?.socket?.remoteAddress,
    trustProxy,
  );
}
