import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { DEMO_ENTRIES } from '../catalogue/demo-fixtures.ts';
import { startCatalogue, type StartedCatalogue } from '../catalogue/start-catalogue.ts';
import { createClientRateLimit } from './client-rate-limit.ts';
import type { ServerConfig } from './config.ts';
import { createServerApp } from './create-server-app.ts';
import type { PageCacheEntry } from './page-source.ts';
import { createQuotaGuard } from './quota-guard.ts';
import { createResponseCache } from './response-cache.ts';
import { loadStaticSite } from './static-files.ts';
import { createThumbnailProxy } from './thumbnail-proxy.ts';
import { createUpstreamClient } from './upstream-client.ts';

// The composition root (issue #3): from a parsed configuration to a running explorer app.
// With no CATALOGUE_BASE_URL it starts the embedded catalogue on loopback with credentials
// made up for this run, and reaches it over real HTTP like any remote upstream, so the code
// path is the one production uses. index.ts and dev.ts share this.

export interface Explorer {
  app: ReturnType<typeof createServerApp>;
  /** Where lookups go (without credentials), for the start-up log. */
  upstreamUrl: string;
  /** /readyz answers 503 from now on. */
  markStopping(): void;
  /** Closes the upstream pools and the embedded catalogue. */
  close(): Promise<void>;
}

const isLoopback = (hostname: string) =>
  hostname === 'localhost' ||
  hostname === '[::1]' ||
  hostname === '::1' ||
  hostname.startsWith('127.');

export async function startExplorer(
  config: ServerConfig,
  logger: Logger,
  options: { serveStatic?: boolean } = {},
): Promise<Explorer> {
  let baseUrl: string;
  let apiKey: string;
  let apiSecret: string;
  let catalogue: StartedCatalogue | null = null;

  if (config.upstream.kind === 'embedded') {
    apiKey = randomBytes(24).toString('base64url');
    apiSecret = randomBytes(32).toString('base64url');
    const catalogueLog = logger.child({ component: 'catalogue' });
    catalogue = await startCatalogue({
      host: '127.0.0.1',
      port: config.upstream.port,
      apiKey,
      apiSecret,
      dataDir: config.upstream.dataDir,
      // Root-relative thumbnail URLs, served through this origin (thumbnail-proxy.ts).
      thumbnailBaseUrl: '',
      faults: config.upstream.faults,
      faultControl: config.upstream.faultControl,
      logger: {
        info: (obj, msg) => catalogueLog.info(obj, msg),
        warn: (obj, msg) => catalogueLog.warn(obj, msg),
      },
    });
    baseUrl = catalogue.url;
    logger.info(
      {
        url: catalogue.url,
        faultControl: config.upstream.faultControl,
        faults: config.upstream.faults,
      },
      'embedded catalogue started (credentials generated for this run)',
    );
  } else {
    ({ baseUrl, apiKey, apiSecret } = config.upstream);
    const url = new URL(baseUrl);
    if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
      logger.warn(
        { baseUrl },
        'CATALOGUE_BASE_URL is plain http to another host: the API credentials cross the network unencrypted',
      );
    }
  }

  const quota = createQuotaGuard({ budgetPerHour: config.quotaPerHour });
  const upstream = createUpstreamClient({
    baseUrl,
    apiKey,
    apiSecret,
    quota,
    logger: logger.child({ component: 'upstream' }),
    deadlineMs: config.upstreamTimeoutMs,
    retries: config.upstreamRetries,
  });
  const thumbnails = catalogue === null ? null : createThumbnailProxy({ baseUrl: catalogue.url });
  const staticSite =
    options.serveStatic === false
      ? null
      : loadStaticSite(config.staticRoot, {
          onMissingBuild: () =>
            logger.warn(
              { staticRoot: config.staticRoot },
              'no built app (index.html) found: run `npm run build`; serving a placeholder page',
            ),
        });

  let stopping = false;
  const app = createServerApp({
    upstream,
    cache: createResponseCache<PageCacheEntry>({ maxBytes: config.cacheMaxBytes }),
    quota,
    clientRateLimit: createClientRateLimit(config.clientRateLimit),
    staticSite,
    thumbnails,
    demoEntries: catalogue === null ? null : DEMO_ENTRIES,
    logger,
    trustProxy: config.trustProxy,
    isStopping: () => stopping,
  });

  return {
    app,
    upstreamUrl: baseUrl,
    markStopping: () => {
      stopping = true;
    },
    async close() {
      await Promise.allSettled([upstream.close(), thumbnails?.close()]);
      await catalogue?.close();
    },
  };
}
