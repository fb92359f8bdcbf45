import type { Context, Handler } from 'hono';
import {
  isAppRoute,
  listForUrl,
  platformLinkPath,
  requestedList,
} from '../../shared/app-routes.ts';
import { problem } from '../../shared/problem.ts';
import type { AppEnv } from '../http/app-env.ts';
import type { AppHtml, AppHtmlRequest } from '../rendering/app-html.ts';
import { clientAddress } from '../http/client-address.ts';
import { sendRepresentation } from '../http/representation.ts';
import { HTML_TYPE, problemResponse, respond } from '../http/responses.ts';
import { logAnswer } from '../observability/request-log.ts';
import type { PageSource } from '../pages/page-source.ts';

// The app's pages: for every app URL, the view rendered on the server (app-html.ts), never
// cached without asking. A view with a list waits for one thing only, its first page, through
// the same cache, merging and quota as the API, and for a short while at most: a slow or
// failing upstream gets the view without its rows, which the client then fetches. A list the
// upstream says does not exist, a malformed ID and any path that is not the app's get the
// not-found view with a 404 status, as a crawler, a link unfurler or a script expects. The
// platform's own URL forms that name a playlist are redirected to the explorer's own path for
// it, so that every list has one address (and one preview, and one cached render).

export interface AppPageOptions {
  /** Null when something else serves the app. */
  appHtml: AppHtml | null;
  pageSource: PageSource;
  trustProxy: boolean;
  /** How long the HTML may wait for a list's first page (about a second). */
  initialPageWaitMs: number;
  /** The origin of absolute URLs in link previews, for the request (PUBLIC_URL, or its host). */
  originOf: (c: Context<AppEnv>) => string;
}

const HTML_HEADERS = { 'Content-Type': HTML_TYPE, 'Cache-Control': 'no-cache' };

/** Resolves to null if `promise` takes longer than `ms`; never rejects. */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), ms);
  });
  try {
    return await Promise.race([promise.catch(() => null), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

type Rendering = Pick<AppHtmlRequest, 'first' | 'problem'> & { status: 200 | 404 };

export function appPages(options: AppPageOptions): Handler<AppEnv> {
  const { appHtml, pageSource, trustProxy, initialPageWaitMs, originOf } = options;

  /** What the view shows first, and with which status. */
  const firstOf = async (c: Context<AppEnv>, url: URL): Promise<Rendering> => {
    if (!isAppRoute(url.pathname)) return { first: { kind: 'not-found' }, status: 404 };
    const requested = requestedList(url.pathname, url.searchParams);
    if (requested === null) return { first: { kind: 'none' }, status: 200 };
    const list = listForUrl(url.pathname, url.searchParams);
    if (list === null) {
      const detail = `“${requested.id}” is not a ${requested.endpoint === 'playlist' ? 'playlist' : 'channel'} ID.`;
      return {
        first: { kind: 'not-found' },
        problem: { ...requested, problem: problem('invalid_id', detail) },
        status: 404,
      };
    }
    const answer = await within(
      pageSource.get({ ...list, continuation: undefined }, clientAddress(c, trustProxy)),
      initialPageWaitMs,
    );
    if (answer !== null) logAnswer(c.get('log'), answer);
    if (answer?.kind === 'page')
      return { first: { kind: 'page', list, page: answer.page }, status: 200 };
    if (answer?.kind === 'problem' && (answer.status === 404 || answer.status === 400)) {
      const { code, detail } = answer;
      return {
        first: { kind: 'not-found' },
        problem: { ...list, problem: problem(code, detail) },
        status: 404,
      };
    }
    // Rate limited, failing or slow: the view without its rows; the client asks for them.
    return { first: { kind: 'none' }, status: 200 };
  };

  return async (c) => {
    const log = c.get('log');
    const url = new URL(c.req.url);
    if (appHtml === null) {
      log.route = 'not-found';
      return problemResponse('not_found', `Nothing here: ${url.pathname}`, {
        instance: url.pathname,
      });
    }
    const own = platformLinkPath(url.pathname, url.searchParams);
    if (own !== null) {
      log.route = 'platform-link';
      return respond(302, null, { Location: own, 'Cache-Control': 'no-cache' });
    }
    const { status, ...rendering } = await firstOf(c, url);
    log.route = status === 404 ? 'app-not-found' : 'app';
    const html = await appHtml.render({ url, origin: originOf(c), ...rendering });
    return sendRepresentation(c.req, html, status, HTML_HEADERS);
  };
}
