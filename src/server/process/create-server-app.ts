import { Hono } from 'hono';
import type { Logger } from 'pino';
import type { AppEnv } from '../http/app-env.ts';
import type { AppHtml } from '../rendering/app-html.ts';
import { internalError } from '../http/internal-error.ts';
import { methodGuard, methodNotAllowed } from '../http/method-guard.ts';
import {
  createRequestLogger,
  requestLog,
  type RequestLogger,
} from '../observability/request-log.ts';
import type { ExplorerMetrics } from '../observability/metrics.ts';
import type { PageSource } from '../pages/page-source.ts';
import type { ClientRateLimit } from '../quota/client-rate-limit.ts';
import { publicOrigin } from '../rendering/link-preview.ts';
import { appPages } from '../routes/app-pages.ts';
import { builtFiles } from '../routes/built-files.ts';
import type { ReadinessSources } from '../routes/health.ts';
import { API_OPERATIONS, type ApiDeps } from '../routes/api-operations.ts';
import { operationInput, routerPath } from '../http/operation.ts';
import { openApiDocument } from '../openapi/openapi-document.ts';
import type { DemoEntry } from '../../shared/explorer-api.ts';
import { notFound, unknownApi } from '../routes/not-found.ts';
import { thumbnails } from '../routes/thumbnails.ts';
import { cards } from '../routes/cards.ts';
import { feedUpdates, feeds } from '../routes/feeds.ts';
import { createFeedSource } from '../feeds/feed-source.ts';
import { FEED_UPDATES_PATH, FEEDS_PREFIX } from '../../shared/feeds.ts';
import { FEED_COSTS_PATH, type FeedCosts } from '../../shared/feed-costs.ts';
import { feedCosts } from '../routes/feed-costs.ts';
import { CARDS_PREFIX } from '../cards/card-address.ts';
import type { PreviewCards } from '../cards/preview-cards.ts';
import type { ChannelTitles } from '../rendering/channel-titles.ts';
import type { WholeListOptions } from '../routes/whole-list.ts';
import type { StaticSite } from '../rendering/static-files.ts';
import { THUMBNAIL_PREFIX, type ThumbnailProxy } from '../upstream/thumbnail-proxy.ts';

// The explorer server as one Hono app, wired from parts built elsewhere (start-explorer.ts),
// so that tests can pass real ones (an upstream over HTTP, a small cache, a tight quota) and
// call `app.request()`. It registers the HTTP API from its operation table
// (routes/api-operations.ts), then what is not API: the embedded catalogue's thumbnails, the
// built app's files and the app's pages, rendered with a deep link's first page inside.

export interface ServerAppOptions extends Omit<ReadinessSources, 'isStopping' | 'sharingDown'> {
  /** Why the state shared with other replicas is unreachable (routes/health.ts); unset: alone. */
  sharingDown?: ReadinessSources['sharingDown'];
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
  /** Channel names seen in playlist pages, for oEmbed's author; unset: channels by ID. */
  channelTitles?: ChannelTitles;
  /** The views' preview cards (`/cards/…png`); unset: none (404). */
  cards?: PreviewCards | null;
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
  /** How long an HTML answer may wait for a list's first page. */
  initialPageWaitMs?: number;
  /** How long it may wait when a person's browser navigates to it (unset: as long as any). */
  firstPaintWaitMs?: number;
  /** The upstream's typical time for a lookup now (upstream/round-trip.ts); unset: instant. */
  upstreamRoundTripMs?: () => number;
  /**
   * Each client's allowance of renders not kept already (the composition root's, from
   * RENDER_RATE_LIMIT_*); unset, renders are not limited (tests about something else).
   */
  renderLimit?: ClientRateLimit;
  /** True once shutdown began: /readyz says so, so a balancer stops sending traffic. */
  isStopping?: () => boolean;
  /** GET /metrics for bearers of `token`; without both, there is no such route. */
  metrics?: { registry: ExplorerMetrics; token: string | undefined };
  /** Summaries, exports and walks of whole lists; unset: no such routes. */
  wholeList?: Omit<WholeListOptions, 'pageSource' | 'trustProxy'>;
  /** Whole-list work as jobs (jobs/); unset: no such routes. */
  jobs?: ApiDeps['jobs'];
  /**
   * Each client's allowance of upstream lookups (CLIENT_RATE_LIMIT_*), which the Following
   * view's refresh estimate is worked out from; unset (tests): unlimited.
   */
  clientAllowance?: FeedCosts['allowance'];
}

const UNLIMITED: ClientRateLimit = { take: () => ({ ok: true }) };
const UNLIMITED_ALLOWANCE: FeedCosts['allowance'] = { burst: 1e9, perSecond: 1e9 };

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

  // The HTTP API, from its table: each operation's path parameters and query are read before
  // its handler, which decides what to refuse and in which order.
  const deps: ApiDeps = {
    pageSource,
    trustProxy,
    upstream,
    isStopping,
    isStarting: options.isStarting,
    sharingDown: options.sharingDown ?? (() => undefined),
    demoEntries: options.demoEntries ?? null,
    metrics: options.metrics,
    wholeList: options.wholeList,
    document: () => openApiDocument(),
    publicUrl,
    channelTitles: options.channelTitles,
    jobs: options.jobs,
  };
  const methodsOf = new Map<string, string[]>();
  for (const operation of API_OPERATIONS) {
    const handler = operation.handler(deps);
    if (handler === undefined) continue;
    const method = operation.method.toUpperCase();
    app.on(method, routerPath(operation.path), operationInput(operation), handler);
    const methods = methodsOf.get(operation.path) ?? [];
    methods.push(...(method === 'GET' ? ['GET', 'HEAD'] : [method]));
    methodsOf.set(operation.path, methods);
  }
  // A path of the table asked with a method it does not answer (the guard lets POST and DELETE
  // through to the jobs' paths only): a 405 naming the ones it does.
  for (const [path, methods] of methodsOf)
    if (methods.some((method) => method !== 'GET' && method !== 'HEAD'))
      app.all(routerPath(path), methodNotAllowed(methods.join(', ')));
  app.get('/api/*', unknownApi);
  app.all('/api/*', unknownApi);

  app.get(`${THUMBNAIL_PREFIX}*`, thumbnails(options.thumbnails ?? null));
  app.get(`${CARDS_PREFIX}/*`, cards(options.cards ?? null, trustProxy));
  const feedOptions = {
    feedSource: createFeedSource({ pageSource, channelTitles: options.channelTitles }),
    publicUrl,
    trustProxy,
  };
  if (options.wholeList)
    app.get(
      FEED_COSTS_PATH,
      feedCosts({
        pageSource,
        keepsTail: feedOptions.feedSource.keepsTail,
        trustProxy,
        allowance: options.clientAllowance ?? UNLIMITED_ALLOWANCE,
        quota: options.wholeList.quota,
        shares: options.wholeList.shares,
      }),
    );
  app.get(FEED_UPDATES_PATH, feedUpdates(feedOptions));
  app.get(`${FEEDS_PREFIX}/*`, feeds(feedOptions));

  app.get(
    '*',
    builtFiles(staticSite),
    appPages({
      appHtml,
      pageSource,
      renderLimit: options.renderLimit ?? UNLIMITED,
      trustProxy,
      initialPageWaitMs,
      firstPaintWaitMs: options.firstPaintWaitMs ?? initialPageWaitMs,
      upstreamRoundTripMs: options.upstreamRoundTripMs ?? (() => 0),
      originOf: (c) => publicOrigin(c.req.raw, { publicUrl, trustProxy }),
    }),
  );

  app.notFound(notFound);
  app.onError(internalError(logger));
  return app;
}
