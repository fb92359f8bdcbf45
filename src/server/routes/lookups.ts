import type { Handler } from 'hono';
import type { EndpointName } from '../../shared/endpoints.ts';
import type { AppEnv } from '../http/app-env.ts';
import { clientAddress } from '../http/client-address.ts';
import { sendRepresentation } from '../http/representation.ts';
import { JSON_TYPE, problemResponse, type HeaderRecord } from '../http/responses.ts';
import { logAnswer } from '../observability/request-log.ts';
import type { PageSource } from '../pages/page-source.ts';
import type { CacheStatus } from '../pages/page-entry.ts';
import { validateLookup } from '../http/validate-lookup.ts';

// The three lookups on the app's own origin: the input is checked before any quota is spent,
// then the page comes from the page source (cache, merging, quota, upstream, stale copy) and
// goes out with a validator and in the best coding the browser accepts.

export interface LookupRouteOptions {
  pageSource: PageSource;
  /** Read the client's address from X-Forwarded-For (behind a reverse proxy only). */
  trustProxy: boolean;
}

/** Browsers may reuse an API answer this long without asking (pages change slowly). */
const API_MAX_AGE_SECONDS = 60;

/** The headers of a page answer (the fast path for cached pages sends the same). */
export function pageHeaders(cache: CacheStatus): HeaderRecord {
  return {
    'Content-Type': JSON_TYPE,
    // A stale copy stood in for a failed upstream: let the browser ask again next time.
    'Cache-Control': cache === 'stale' ? 'no-cache' : `public, max-age=${API_MAX_AGE_SECONDS}`,
    'X-Cache': cache,
  };
}

export function lookup(name: EndpointName, options: LookupRouteOptions): Handler<AppEnv> {
  const { pageSource, trustProxy } = options;
  return async (c) => {
    const log = c.get('log');
    log.route = `api:${name}`;
    const query = c.get('query');
    const checked = query.ok ? validateLookup(name, query.values) : query;
    if (!checked.ok) return problemResponse(checked.code, checked.detail, { instance: c.req.path });

    const answer = await pageSource.get(checked.lookup, clientAddress(c, trustProxy));
    logAnswer(log, answer);
    if (answer.kind === 'problem') {
      return problemResponse(answer.code, answer.detail, {
        instance: c.req.path,
        retryAfterSeconds: answer.retryAfterSeconds,
      });
    }
    const { page } = answer;
    return sendRepresentation(c.req, page, 200, pageHeaders(answer.cache), (encoding) =>
      pageSource.encode(checked.lookup, page, encoding),
    );
  };
}
