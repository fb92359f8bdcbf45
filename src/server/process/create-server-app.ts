import { Hono } from 'hono';
import type { Logger } from 'pino';
import { endpointNames, endpoints } from '../../shared/endpoints.ts';
import { DEMO_ENTRIES_PATH, type DemoEntry } from '../../shared/explorer-api.ts';
import type { AppEnv } from '../http/app-env.ts';
import type { AppHtml } from '../rendering/app-html.ts';
import { internalError } from '../http/internal-error.ts';
import { methodGuard } from '../http/method-guard.ts';
import {
  createRequestLogger,
  requestLog,
  type RequestLogger,
} from '../observability/request-log.ts';
import type { ExplorerMetrics } from '../observability/metrics.ts';
import type { PageSource } from '../pages/page-source.ts';
import { publicOrigin } from '../rendering/link-preview.ts';
import { appPages } from '../routes/app-pages.ts';
import { builtFiles } from '../routes/built-files.ts';
import { demoEntries } from '../routes/demo-entries.ts';
import { healthz, readyz, type ReadinessSources } from '../routes/health.ts';
import { lookup } from '../routes/lookups.ts';
import { metricsRoute } from '../routes/metrics.ts';
import { notFound, unknownApi } from '../routes/not-found.ts';
import { apiReference, openApiJson } from '../routes/openapi.ts';
import { thumbnails } from '../routes/thumbnails.ts';
import {
  exportRoute,
  summaryRoute,
  walkCostRoute,
  walkRoute,
  type WholeListOptions,
} from '../routes/whole-list.ts';
import { WHOLE_LIST_PATHS } from '../../shared/whole-list.ts';
import type { StaticSite } from '../rendering/static-files.ts';
import { THUMBNAIL_PREFIX, type ThumbnailProxy } from '../upstream/thumbnail-proxy.ts';

// The explorer server as one Hono app, wired from parts built elsewhere (start-explorer.ts),
// so that tests can pass real ones (an upstream over HTTP, a small cache, a tight quota) and
// call `app.request()`. It answers the three lookups on the app's own origin, serves the
// built app, ships a deep link's first page inside the HTML, and proxies the embedded
// catalogue's thumbnails. Each route and middleware lives in a module of its own.

export interface ServerAppOptions extends Omit<ReadinessSources, 'isStopping'> {
  /** Every page, for the API and the HTML alike (page-source.ts). */
  pageSource: PageSource;
  /** The built app's files; null when something else serves them (`npm run dev`). */
  staticSite: StaticSite | null;
  /** The app's pages, rendered on the server; null: no pages (an API-only server). */
  appHtml: AppHtml | null;
  /** The public origin of absolute URLs (link previews); unset: the request's own. */
  publicUrl?: string;
  /** Only with the embedded catalogue. */
  thumbnails?: ThumbnailProxy | null;
  /** `GET /api/demo`; null (404) unless the upstream is the embedded catalogue. */
  demoEntries?: DemoEntry[] | null;
  logger: Logger;
  /**
   * Where the request lines go; shared with the fast path for cached pages when there is one
   * (start-explorer.ts), so that request IDs are unique whichever door a request came through.
   */
  requestLogger?: RequestLogger;
  /** Read the client's address from X-Forwarded-For (behind a reverse proxy only). */
  trustProxy?: boolean;
  /** How long an HTML answer may wait for a deep link's first page. */
  initialPageWaitMs?: number;
  /** True once shutdown began: /readyz says so, so a balancer stops sending traffic. */
  isStopping?: () => boolean;
  /** GET /metrics for bearers of `token`; without both, there is no such route. */
  metrics?: { registry: ExplorerMetrics; token: string | undefined };
  /** Summaries, exports and walks of whole lists; unset: no such routes. */
  wholeList?: Omit<WholeListOptions, 'pageSource' | 'trustProxy'>;
}

export function createServerApp(options: ServerAppOptions): Hono<AppEnv> {
  const {
    pageSource,
    upstream,
    staticSite,
    appHtml,
    publicUrl,
    logger,
    trustProxy = false,
    initialPageWaitMs = 1000,
    isStopping = () => false,
  } = options;
  const app = new Hono<AppEnv>();

  app.use(requestLog(options.requestLogger ?? createRequestLogger(logger)));
  app.use(methodGuard);

  app.get('/healthz', healthz);
  app.get('/readyz', readyz({ upstream, isStopping, sharingDown: options.sharingDown }));
  const { metrics } = options;
  if (metrics?.token !== undefined)
    app.get('/metrics', metricsRoute(metrics.registry, metrics.token));

  app.get(DEMO_ENTRIES_PATH, demoEntries(options.demoEntries ?? null));
  for (const name of endpointNames)
    app.get(endpoints[name].path, lookup(name, { pageSource, trustProxy }));
  if (options.wholeList !== undefined) {
    const whole: WholeListOptions = { ...options.wholeList, pageSource, trustProxy };
    app.get(`${WHOLE_LIST_PATHS.summary}/:list/:id`, summaryRoute(whole));
    app.get(`${WHOLE_LIST_PATHS.cost}/:list/:id`, walkCostRoute(whole));
    app.get(`${WHOLE_LIST_PATHS.walk}/:list/:id`, walkRoute(whole));
    app.get(`${WHOLE_LIST_PATHS.export}/:list/:file`, exportRoute(whole));
  }
  app.get(WHOLE_LIST_PATHS.openapi, openApiJson);
  app.get(WHOLE_LIST_PATHS.reference, apiReference);
  app.get('/api/*', unknownApi);

  app.get(`${THUMBNAIL_PREFIX}*`, thumbnails(options.thumbnails ?? null));

  app.get(
    '*',
    builtFiles(staticSite),
    appPages({
      appHtml,
      pageSource,
      trustProxy,
      initialPageWaitMs,
      originOf: (c) => publicOrigin(c.req.raw, { publicUrl, trustProxy }),
    }),
  );

  app.notFound(notFound);
  app.onError(internalError(logger));
  return app;
}
