import { createHash, timingSafeEqual } from 'node:crypto';
import type { Handler } from 'hono';
import type { AppEnv } from '../http/app-env.ts';
import { problemResponse, respond } from '../http/responses.ts';
import type { ExplorerMetrics } from '../observability/metrics.ts';

// GET /metrics on the public port, for a scraper that presents the configured token
// (`Authorization: Bearer …`). Without a token configured the route does not exist (404, like
// any unknown path): the figures tell an outsider how close the account is to its quota. A
// separate metrics port (start-explorer.ts) serves the same text without a token, for
// deployments that keep that port private.

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * The credentials of `Authorization: Bearer <token>`. The scheme is case-insensitive and may be
 * followed by more than one space (RFC 9110 §11.1, §11.4); the token is taken as sent.
 */
export function bearerToken(header: string): string {
  const match = /^bearer +(\S+) *$/i.exec(header);
  return match?.[1] ?? '';
}

/** Compares in constant time, whatever the lengths. */
function tokenMatches(given: string, expected: Buffer): boolean {
  return timingSafeEqual(digest(given), expected);
}

export function metricsRoute(metrics: ExplorerMetrics, token: string): Handler<AppEnv> {
  const expected = digest(token);
  return async (c) => {
    c.get('log').route = 'metrics';
    const header = c.req.header('authorization') ?? '';
    const given = bearerToken(header);
    if (!tokenMatches(given, expected)) {
      return problemResponse('unauthorized', 'The metrics need the bearer token.', {
        headers: { 'WWW-Authenticate': 'Bearer realm="metrics"' },
      });
    }
    return respond(200, await metrics.text(), {
      'Content-Type': metrics.contentType,
      'Cache-Control': 'no-store',
    });
  };
}
