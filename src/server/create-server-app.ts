import type { HttpBindings } from '@hono/node-server';
import { Hono, type Context } from 'hono';
import type { Logger } from 'pino';
import { isAppRoute } from '../shared/app-routes.ts';
import { endpointNames, endpoints } from '../shared/endpoints.ts';
import { DEMO_ENTRIES_PATH, type DemoEntry } from '../shared/explorer-api.ts';
import type { ClientRateLimit } from './client-rate-limit.ts';
import { compress, COMPRESS_MIN_BYTES, negotiateEncoding, type Encoding } from './compression.ts';
import { problemResponse, respond, type HeaderRecord } from './http-responses.ts';
import { initialPageLookup, initialPageScript, injectInitialPage } from './initial-page.ts';
import { injectPreloads } from './view-preloads.ts';
import {
  createPageSource,
  type PageAnswer,
  type PageCacheEntry,
  type StoredPage,
} from './page-source.ts';
import type { QuotaGuard } from './quota-guard.ts';
import { createRequestCoalescer } from './request-coalescer.ts';
import type { ResponseCache } from './response-cache.ts';
import type { StaticFile, StaticSite } from './static-files.ts';
import { THUMBNAIL_PREFIX, type ThumbnailProxy } from './thumbnail-proxy.ts';
import type { UpstreamClient } from './upstream-client.ts';
import { validateLookup, type Lookup } from './validate-lookup.ts';

// The explorer server as one Hono app (issue #3), built from its parts so that tests can pass
// real ones (an upstream over HTTP, a small cache, a tight quota) and call `app.request()`.
// It answers the three lookups on the app's own origin, serves the built app, ships a deep
// link's first page inside the HTML, and proxies thumbnails of the embedded catalogue.

export interface ServerAppOptions {
  upstream: Pick<UpstreamClient, 'fetchPage' | 'health'>;
  cache: ResponseCache<PageCacheEntry>;
  quota: QuotaGuard;
  clientRateLimit: ClientRateLimit;
  /** The built app; null when something else serves it (`npm run dev`). */
  staticSite: StaticSite | null;
  /** Only with the embedded catalogue. */
  thumbnails?: ThumbnailProxy | null;
  /** `GET /api/demo`; null (404) unless the upstream is the embedded catalogue. */
  demoEntries?: DemoEntry[] | null;
  logger: Logger;
  /** Read the client's address from X-Forwarded-For (behind a reverse proxy only). */
  trustProxy?: boolean;
  /** How long an HTML answer may wait for a deep link's first page (issue #3: ~1 s). */
  initialPageWaitMs?: number;
  freshMs?: Parameters<typeof createPageSource>[0]['freshMs'];
  staleMs?: number;
  refusalMs?: number;
  now?: () => number;
  /** True once shutdown began: /readyz says so, so a balancer stops sending traffic. */
  isStopping?: () => boolean;
}

interface RequestLog {
  route: string;
  cache?: string;
  upstreamStatus?: number;
  attempts?: number;
}

type AppEnv = { Bindings: Partial<HttpBindings>; Variables: { log: RequestLog; reqId: string } };

/** Browsers may reuse an API answer this long without asking (pages change slowly). */
const API_MAX_AGE_SECONDS = 60;
const ALLOW = 'GET, HEAD';
const JSON_TYPE = 'application/json; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';
const REQUEST_ID_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/** A strong validator per content coding (RFC 9110 §8.8.3: they are different bytes). */
const variantTag = (etag: string, encoding: Encoding | null) =>
  encoding === null ? etag : `${etag.slice(0, -1)}.${encoding === 'br' ? 'br' : 'gz'}"`;

/** If-None-Match uses the weak comparison (RFC 9110 §13.1.2): any coding of the same bytes. */
function notModified(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  for (const raw of header.split(',')) {
    const tag = raw.trim().replace(/^W\//, '');
    if (
      tag === '*' ||
      tag === etag ||
      tag === variantTag(etag, 'br') ||
      tag === variantTag(etag, 'gzip')
    )
      return true;
  }
  return false;
}

function clientAddress(c: Context<AppEnv>, trustProxy: boolean): string {
  if (trustProxy) {
    // The nearest proxy appends the address it saw; earlier entries are the client's say-so.
    const last = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (last) return last;
  }
  return c.env?.incoming?.socket?.remoteAddress ?? 'local';
}

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

export function createServerApp(options: ServerAppOptions): Hono<AppEnv> {
  const {
    upstream,
    cache,
    quota,
    staticSite,
    thumbnails = null,
    demoEntries = null,
    logger,
    trustProxy = false,
    initialPageWaitMs = 1000,
    isStopping = () => false,
  } = options;
  const pageSource = createPageSource({
    upstream,
    cache,
    coalescer: createRequestCoalescer<PageAnswer>(),
    clientRateLimit: options.clientRateLimit,
    ...(options.freshMs === undefined ? {} : { freshMs: options.freshMs }),
    ...(options.staleMs === undefined ? {} : { staleMs: options.staleMs }),
    ...(options.refusalMs === undefined ? {} : { refusalMs: options.refusalMs }),
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  const bootId = Date.now().toString(36);
  let requestCount = 0;

  const app = new Hono<AppEnv>();

  // One structured line per request (issue #3, "structured JSON logs"): never headers, never
  // the query (continuations are long and say nothing), never a credential.
  app.use(async (c, next) => {
    const started = performance.now();
    const given = c.req.header('x-request-id');
    const reqId =
      given !== undefined && REQUEST_ID_PATTERN.test(given) ? given : `${bootId}-${++requestCount}`;
    const log: RequestLog = { route: 'unmatched' };
    c.set('reqId', reqId);
    c.set('log', log);
    await next();
    if (logger.isLevelEnabled('info')) {
      logger.info(
        {
          reqId,
          method: c.req.method,
          path: c.req.path,
          route: log.route,
          status: c.res.status,
          ms: Math.round((performance.now() - started) * 1000) / 1000,
          ...(log.cache === undefined ? {} : { cache: log.cache }),
          ...(log.upstreamStatus === undefined ? {} : { upstreamStatus: log.upstreamStatus }),
          ...(log.attempts === undefined ? {} : { upstreamAttempts: log.attempts }),
        },
        'request',
      );
    }
  });

  // Only GET and HEAD exist (issue #3); Hono answers HEAD from the GET routes without a body.
  app.use(async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      c.get('log').route = 'method-not-allowed';
      return problemResponse(
        405,
        'method_not_allowed',
        `${c.req.method} is not supported here; use GET.`,
        {
          instance: c.req.path,
          headers: { Allow: ALLOW },
        },
      );
    }
    await next();
  });

  app.get('/healthz', (c) => {
    c.get('log').route = 'healthz';
    return respond(200, '{"status":"ok"}', {
      'Content-Type': JSON_TYPE,
      'Cache-Control': 'no-store',
    });
  });

  app.get('/readyz', (c) => {
    c.get('log').route = 'readyz';
    const health = upstream.health();
    const status = isStopping() ? 'stopping' : health.credentialsRejected ? 'degraded' : 'ready';
    const body = {
      status,
      ...(health.credentialsRejected ? { reason: 'upstream_credentials_rejected' } : {}),
      upstream: health,
      quota: quota.stats(),
      cache: cache.stats(),
    };
    return respond(status === 'ready' ? 200 : 503, JSON.stringify(body), {
      'Content-Type': JSON_TYPE,
      'Cache-Control': 'no-store',
    });
  });

  app.get(DEMO_ENTRIES_PATH, (c) => {
    c.get('log').route = 'demo';
    if (demoEntries === null) {
      return problemResponse(404, 'not_found', 'This explorer is not running the demo catalogue.', {
        instance: c.req.path,
      });
    }
    return respond(200, JSON.stringify({ entries: demoEntries }), {
      'Content-Type': JSON_TYPE,
      'Cache-Control': 'public, max-age=300',
    });
  });

  async function sendPage(
    c: Context<AppEnv>,
    lookup: Lookup,
    answer: Extract<PageAnswer, { kind: 'page' }>,
  ) {
    const page = answer.page;
    const encoding =
      page.body.length >= COMPRESS_MIN_BYTES
        ? negotiateEncoding(c.req.header('accept-encoding'))
        : null;
    const headers: HeaderRecord = {
      'Content-Type': JSON_TYPE,
      // A stale copy stood in for a failed upstream: let the browser ask again next time.
      'Cache-Control':
        answer.cache === 'stale' ? 'no-cache' : `public, max-age=${API_MAX_AGE_SECONDS}`,
      ETag: variantTag(page.etag, encoding),
      Vary: 'Accept-Encoding',
      'X-Cache': answer.cache,
    };
    if (notModified(c.req.header('if-none-match'), page.etag)) return respond(304, null, headers);
    if (encoding === null) return respond(200, page.body, headers);
    const body = await pageSource.encode(lookup, page, encoding);
    return respond(200, body, { ...headers, 'Content-Encoding': encoding });
  }

  for (const name of endpointNames) {
    app.get(endpoints[name].path, async (c) => {
      const log = c.get('log');
      log.route = `api:${name}`;
      const url = c.req.url;
      const mark = url.indexOf('?');
      const checked = validateLookup(name, mark === -1 ? '' : url.slice(mark + 1));
      if (!checked.ok)
        return problemResponse(400, checked.code, checked.detail, { instance: c.req.path });

      const answer = await pageSource.get(checked.lookup, clientAddress(c, trustProxy));
      log.cache = answer.cache;
      if (answer.upstreamStatus !== undefined) log.upstreamStatus = answer.upstreamStatus;
      if (answer.attempts !== undefined) log.attempts = answer.attempts;
      if (answer.kind === 'page') return sendPage(c, checked.lookup, answer);
      return problemResponse(answer.status, answer.code, answer.detail, {
        instance: c.req.path,
        ...(answer.retryAfterSeconds === undefined
          ? {}
          : { retryAfterSeconds: answer.retryAfterSeconds }),
      });
    });
  }

  app.get(`${THUMBNAIL_PREFIX}*`, async (c) => {
    c.get('log').route = 'thumbnail';
    if (thumbnails === null)
      return problemResponse(404, 'not_found', 'No such thumbnail.', { instance: c.req.path });
    const url = c.req.url;
    const answer = await thumbnails.fetch(
      url.slice(url.indexOf(THUMBNAIL_PREFIX, url.indexOf('//') + 2)),
    );
    if (answer.status === 404)
      return problemResponse(404, 'not_found', 'No such thumbnail.', { instance: c.req.path });
    if (answer.status !== 200)
      return problemResponse(502, 'upstream_error', 'The thumbnail could not be fetched.', {
        instance: c.req.path,
      });
    return respond(200, answer.body, answer.headers);
  });

  function sendFile(c: Context<AppEnv>, file: StaticFile, status: 200 | 404) {
    const accepted = negotiateEncoding(c.req.header('accept-encoding'));
    const encoding = accepted !== null && file.encoded[accepted] !== undefined ? accepted : null;
    const headers: HeaderRecord = {
      'Content-Type': file.contentType,
      'Cache-Control': file.cacheControl,
    };
    if (file.encoded.br !== undefined || file.encoded.gzip !== undefined)
      headers.Vary = 'Accept-Encoding';
    if (status === 200) {
      headers.ETag = variantTag(file.etag, encoding);
      if (notModified(c.req.header('if-none-match'), file.etag)) return respond(304, null, headers);
    }
    if (encoding === null) return respond(status, file.body, headers);
    return respond(status, file.encoded[encoding] as Buffer, {
      ...headers,
      'Content-Encoding': encoding,
    });
  }

  /** The HTML with a first page inside, made once per cached page, view and coding. */
  const htmlWithPage = new WeakMap<
    StoredPage,
    Map<string, { identity: Buffer; encoded: Partial<Record<Encoding, Promise<Buffer>>> }>
  >();

  async function sendHtmlWithPage(
    c: Context<AppEnv>,
    site: StaticSite,
    lookup: Lookup,
    page: StoredPage,
  ) {
    // `/playlist/ID` and `/watch?list=ID` share a page but not their views' code.
    const links = site.preloads.linksFor(c.req.path, true);
    let byLinks = htmlWithPage.get(page);
    if (byLinks === undefined) {
      byLinks = new Map();
      htmlWithPage.set(page, byLinks);
    }
    let rendered = byLinks.get(links);
    if (rendered === undefined) {
      const html = injectInitialPage(
        injectPreloads(site.index.body.toString('utf8'), links),
        initialPageScript(lookup, page.body),
      );
      rendered = { identity: Buffer.from(html), encoded: {} };
      byLinks.set(links, rendered);
    }
    const headers: HeaderRecord = {
      'Content-Type': HTML_TYPE,
      'Cache-Control': 'no-cache',
      Vary: 'Accept-Encoding',
    };
    const encoding = negotiateEncoding(c.req.header('accept-encoding'));
    if (encoding === null) return respond(200, rendered.identity, headers);
    const body = await (rendered.encoded[encoding] ??= compress(rendered.identity, encoding));
    return respond(200, body, { ...headers, 'Content-Encoding': encoding });
  }

  app.get('*', async (c) => {
    const log = c.get('log');
    const path = c.req.path;
    if (path === '/api' || path.startsWith('/api/')) {
      log.route = 'api:unknown';
      return problemResponse(404, 'not_found', `No such API: ${path}`, { instance: path });
    }
    if (staticSite === null) {
      log.route = 'not-found';
      return problemResponse(404, 'not_found', `Nothing here: ${path}`, { instance: path });
    }
    const file = staticSite.files.get(path);
    if (file !== undefined) {
      log.route = 'static';
      return sendFile(c, file, 200);
    }
    if (path.startsWith('/assets/')) {
      // A missing script or style: HTML in its place would only confuse the browser.
      log.route = 'static';
      return respond(404, 'Not Found', {
        'Content-Type': 'text/plain; charset=utf-8',
        'Cache-Control': 'no-store',
      });
    }
    if (!isAppRoute(path)) {
      // The app's own not-found page, with the status a crawler or a script expects.
      log.route = 'app-not-found';
      return sendFile(c, staticSite.index, 404);
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
      if (answer !== null) {
        log.cache = answer.cache;
        if (answer.upstreamStatus !== undefined) log.upstreamStatus = answer.upstreamStatus;
      }
      if (answer?.kind === 'page') return sendHtmlWithPage(c, staticSite, lookup, answer.page);
    }
    return sendFile(c, staticSite.indexFor(path), 200);
  });

  app.notFound((c) =>
    problemResponse(404, 'not_found', `Nothing here: ${c.req.path}`, { instance: c.req.path }),
  );

  app.onError((error, c) => {
    logger.error(
      {
        reqId: c.get('reqId'),
        path: c.req.path,
        err: { name: error.name, message: error.message, stack: error.stack },
      },
      'unhandled error',
    );
    return problemResponse(500, 'internal_error', 'The explorer failed to answer this request.', {
      instance: c.req.path,
    });
  });

  return app;
}
