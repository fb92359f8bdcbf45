import type { Context, Handler } from 'hono';
import { EMBED_FRAMING } from '../http/security-headers.ts';
import {
  isAppRoute,
  isEmbedPath,
  listForUrl,
  platformLinkPath,
  requestedList,
} from '../../shared/app-routes.ts';
import { problem } from '../../shared/problem.ts';
import { pathFor, readUserInput, type ReadResult } from '../../shared/view-target.ts';
import type { AppEnv } from '../http/app-env.ts';
import type { AppHtml, AppHtmlRequest } from '../rendering/app-html.ts';
import type { StoredRender } from '../rendering/stored-render.ts';
import { renderAnswer } from '../rendering/stored-render.ts';
import { clientAddress } from '../http/client-address.ts';
import { prefersHtml } from '../http/accept.ts';
import { isPersonRequest } from '../http/person-request.ts';
import { requestLocale } from '../http/request-locale.ts';
import { screenClassOf } from '../http/screen-class.ts';
import { HTML_TYPE, problemResponse, respond, type HeaderRecord } from '../http/responses.ts';
import type { ClientRateLimit } from '../quota/client-rate-limit.ts';
import { logAnswer } from '../observability/request-log.ts';
import type { PageSource } from '../pages/page-source.ts';

// The app's pages: every app URL's view rendered on the server (app-html.ts), which a view with a
// list renders after waiting a short while at most for its first page. The status says what the
// view shows: 200 with the rows, or still loading when the upstream is slow; 404 for what does
// not exist; or the first page's own problem status with `Retry-After`, so a monitor sees the
// failure and a crawler neither indexes an empty page nor keeps asking. The platform's URL forms
// and the home page's box submitted without scripts redirect to the explorer's own path, so a
// list has one address. Renders cost the server's CPU, so beyond the kept ones each client has
// an allowance (RENDER_RATE_LIMIT_*); past it, a kept render or a 429 (refusal-page.ts).

export interface AppPageOptions {
  /** Null when something else serves the app. */
  appHtml: AppHtml | null;
  pageSource: PageSource;
  /** Each client's allowance of renders (kept renders, and renders on their way, are free). */
  renderLimit: ClientRateLimit;
  trustProxy: boolean;
  /** How long the HTML may wait for a list's first page. */
  initialPageWaitMs: number;
  /**
   * How long it waits when a person's browser navigates to the view (Fetch Metadata,
   * http/person-request.ts): a person sees the view at once, loading, rather than a blank tab while
   * the upstream answers a page not cached yet; the app's own request for the page joins the
   * server's fetch, and the rows show the moment it lands. Link previews, crawlers and monitors
   * wait the whole `initialPageWaitMs`, and get the rows, or the failure's status.
   */
  firstPaintWaitMs: number;
  /**
   * The upstream's typical time for a lookup now (upstream/round-trip.ts). When it is longer
   * than a person's wait, the page cannot come within it: the view goes out at once, loading,
   * after only the moment a kept page (memory or Redis) takes.
   */
  upstreamRoundTripMs: () => number;
  /** The origin of absolute URLs in link previews, for the request (PUBLIC_URL, or its host). */
  originOf: (c: Context<AppEnv>) => string;
}

/**
 * The home page's box, submitted before the app took over (or without scripts): `GET /?target=`
 * with what was pasted, read as the app reads it. Null for any other request.
 */
function homeFormTarget(url: URL, origin: string): ReadResult | null {
  const target = url.pathname === '/' ? url.searchParams.get('target') : null;
  // The explorer's own links are recognised by the host the reader sees (PUBLIC_URL's).
  return target === null ? null : readUserInput(target, new URL(origin).host);
}

/** Enough for a page kept in memory or in Redis, not for one the upstream has to send. */
const KEPT_PAGE_WAIT_MS = 10;

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

type Rendering = Pick<AppHtmlRequest, 'first' | 'problem'> & {
  status: number;
  retryAfterSeconds?: number;
};

export function appPages(options: AppPageOptions): Handler<AppEnv> {
  const { appHtml, pageSource, renderLimit, trustProxy, initialPageWaitMs, originOf } = options;
  const waitFor = (c: Context<AppEnv>) => {
    if (!isPersonRequest(c.req.method, c.env?.incoming?.headers ?? {}, 'view'))
      return initialPageWaitMs;
    const wait = Math.min(options.firstPaintWaitMs, initialPageWaitMs);
    return options.upstreamRoundTripMs() <= wait ? wait : Math.min(wait, KEPT_PAGE_WAIT_MS);
  };

  /** What the view shows first, and with which status. */
  const firstOf = async (c: Context<AppEnv>, url: URL, client: string): Promise<Rendering> => {
    if (!isAppRoute(url.pathname)) return { first: { kind: 'not-found' }, status: 404 };
    // The home page again, its box showing what was sent and why it cannot be opened.
    if (homeFormTarget(url, originOf(c))?.ok === false)
      return { first: { kind: 'none' }, status: 400 };
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
      pageSource.get({ ...list, continuation: undefined }, client),
      waitFor(c),
    );
    // Slow: no answer within the wait (a person's, or anyone's second). The view goes out loading,
    // with 200, rather than a blank tab until the upstream's deadline or calling the page failed:
    // the fetch goes on, the app's own request for the page joins it (merged, at no quota), and
    // the rows show the moment it lands. A failure that does come is then the app's to show, as
    // for a later page. (The stale-copy path is the page source's: a cached copy is answered after
    // STALE_AFTER_MS, within this wait.)
    if (answer === null) return { first: { kind: 'none' }, status: 200 };
    logAnswer(c.get('log'), answer);
    if (answer.kind === 'page')
      return { first: { kind: 'page', list, page: answer.page }, status: 200 };
    const { status, code, detail, retryAfterSeconds } = answer;
    const failure = { ...list, problem: problem(code, detail, { retryAfter: retryAfterSeconds }) };
    // A definite "no" from the upstream: this list does not exist (or cannot).
    if (status === 404 || status === 400)
      return { first: { kind: 'not-found' }, problem: failure, status: 404 };
    // The upstream could not give the page (failing, unreachable, rate limited, out of quota):
    // the page's status is the problem's, and the view shows it with its Retry.
    return { first: { kind: 'failed' }, problem: failure, status, retryAfterSeconds };
  };

  /** 429 in place of a render: as HTML for a browser, a problem document for anyone else. */
  const refuse = async (
    c: Context<AppEnv>,
    html: AppHtml,
    url: URL,
    retryAfterSeconds: number,
  ): Promise<Response> => {
    const detail = 'This address has asked for many new pages in a short time.';
    if (!prefersHtml(c.req.header('accept'))) {
      return problemResponse('rate_limited', detail, {
        instance: url.pathname,
        retryAfterSeconds,
      });
    }
    const { locale, vary } = requestLocale(c, url);
    const page = await html.refusal(`${url.pathname}${url.search}`, { retryAfterSeconds }, locale);
    return respond(429, page, {
      'Content-Security-Policy': html.contentSecurityPolicy,
      'Content-Type': HTML_TYPE,
      'Cache-Control': 'no-store',
      'Retry-After': String(retryAfterSeconds),
      ...(vary.length > 0 ? { Vary: vary.join(', ') } : {}),
    });
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
    const opened = homeFormTarget(url, originOf(c));
    if (opened?.ok) {
      log.route = 'home-form';
      return respond(303, null, { Location: pathFor(opened.target), 'Cache-Control': 'no-store' });
    }
    const client = clientAddress(c, trustProxy);
    const { status, retryAfterSeconds, ...rendering } = await firstOf(c, url, client);
    log.route = status === 404 ? 'app-not-found' : status === 200 ? 'app' : 'app-failed';
    const { locale, vary: languageVary } = requestLocale(c, url);
    const { screen, vary: screenVary } = screenClassOf((name) => c.req.header(name));
    const vary = [...languageVary, ...screenVary];
    const request = { url, origin: originOf(c), locale, screen, ...rendering };
    let html: StoredRender;
    const kept = appHtml.cached(request);
    if (kept !== undefined) {
      log.render = kept.ready ? 'hit' : 'merged';
      html = await kept.html;
    } else {
      const allowed = await renderLimit.take(client);
      if (!allowed.ok) {
        log.render = 'limited';
        return refuse(c, appHtml, url, allowed.retryAfterSeconds);
      }
      log.render = 'miss';
      html = await appHtml.render(request);
    }
    const embed = isEmbedPath(url.pathname);
    const headers: HeaderRecord = {
      'Content-Security-Policy': embed
        ? appHtml.embedContentSecurityPolicy
        : appHtml.contentSecurityPolicy,
      ...(embed ? { 'X-Frame-Options': EMBED_FRAMING.xFrameOptions } : {}),
      ...(status < 400 || status === 404
        ? HTML_HEADERS
        : { 'Content-Type': HTML_TYPE, 'Cache-Control': 'no-store' }),
    };
    if (retryAfterSeconds !== undefined) headers['Retry-After'] = String(retryAfterSeconds);
    // The language and the rows were chosen by the request's headers, not its URL: a cache in
    // between must keep one copy for each (RFC 9110 §12.5.5).
    if (vary.length > 0) headers.Vary = vary.join(', ');
    const answer = await renderAnswer(html, status, headers, {
      acceptEncoding: c.req.header('accept-encoding'),
      ifNoneMatch: c.req.header('if-none-match'),
    });
    return respond(answer.status, answer.body, answer.headers);
  };
}
