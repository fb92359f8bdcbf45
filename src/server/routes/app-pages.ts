import type { Handler } from 'hono';
import { isAppRoute } from '../../shared/app-routes.ts';
import type { AppEnv } from '../app-env.ts';
import type { AppHtml } from '../app-html.ts';
import { clientAddress } from '../http/client-address.ts';
import { sendRepresentation } from '../http/representation.ts';
import { HTML_TYPE, problemResponse } from '../http/responses.ts';
import { initialPageLookup } from '../initial-page.ts';
import { logAnswer } from '../middleware/request-log.ts';
import type { PageSource } from '../page-source.ts';

// The app's pages: its HTML (app-html.ts) for every route of the app, never cached without
// asking; for a deep link, with the list's first page inside when it is at hand within a short
// wait. Any other path gets the same HTML, which shows the app's not-found view, with the 404
// status a crawler or a script expects.

export interface AppPageOptions {
  /** Null when something else serves the app (`npm run dev`). */
  appHtml: AppHtml | null;
  pageSource: PageSource;
  trustProxy: boolean;
  /** How long the HTML may wait for a deep link's first page (about a second). */
  initialPageWaitMs: number;
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

export function appPages(options: AppPageOptions): Handler<AppEnv> {
  const { appHtml, pageSource, trustProxy, initialPageWaitMs } = options;
  return async (c) => {
    const log = c.get('log');
    const path = c.req.path;
    if (appHtml === null) {
      log.route = 'not-found';
      return problemResponse(404, 'not_found', `Nothing here: ${path}`, { instance: path });
    }
    if (!isAppRoute(path)) {
      log.route = 'app-not-found';
      return sendRepresentation(c.req, appHtml.render(path), 404, HTML_HEADERS);
    }
    log.route = 'app';
    const lookup = initialPageLookup(path, new URL(c.req.url).searchParams);
    if (lookup !== null) {
      // Same cache, merging and quota as the API; on a slow or failed upstream the app simply
      // fetches the page itself.
      const answer = await within(
        pageSource.get(lookup, clientAddress(c, trustProxy)),
        initialPageWaitMs,
      );
      if (answer !== null) logAnswer(log, answer);
      if (answer?.kind === 'page') {
        const html = appHtml.render(path, { lookup, page: answer.page });
        return sendRepresentation(c.req, html, 200, HTML_HEADERS);
      }
    }
    return sendRepresentation(c.req, appHtml.render(path), 200, HTML_HEADERS);
  };
}
