import type { Handler } from 'hono';
import type { EndpointName } from '../../shared/endpoints.ts';
import type { AppEnv } from '../http/app-env.ts';
import { clientAddress } from '../http/client-address.ts';
import { sendRepresentation } from '../http/representation.ts';
import { problemResponse } from '../http/responses.ts';
import { logAnswer } from '../observability/request-log.ts';
import type { PageSource } from '../pages/page-source.ts';
import { pageHeaders } from '../pages/page-entry.ts';
import { validateLookup } from '../http/validate-lookup.ts';

// The three lookups on the app's own origin: the input is checked before any quota is spent,
// then the page comes from the page source (cache, merging, quota, upstream, stale copy) and
// goes out with a validator and in the best coding the browser accepts.

export interface LookupRouteOptions {
  pageSource: PageSource;
  /** Read the client's address from X-Forwarded-For (behind a reverse proxy only). */
  trustProxy: boolean;
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
