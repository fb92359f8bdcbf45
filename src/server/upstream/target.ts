import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { startCatalogue, type StartedCatalogue } from '../../catalogue/start-catalogue.ts';
import type { ServerConfig } from '../config.ts';

// Where the explorer's lookups go, and with which credentials. With no CATALOGUE_BASE_URL it
// starts the embedded catalogue on loopback with credentials made up for this run, and reaches
// it over real HTTP like any remote upstream, so the code path is the one production uses.

export interface UpstreamTarget {
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  /** The embedded catalogue, when it was started here. */
  catalogue: StartedCatalogue | null;
}

const isLoopback = (hostname: string) =>
  hostname === 'localhost' ||
  hostname === '[::1]' ||
  hostname === '::1' ||
  hostname.startsWith('127.');

export async function resolveUpstreamTarget(
  upstream: ServerConfig['upstream'],
  logger: Logger,
): Promise<UpstreamTarget> {
  if (upstream.kind === 'remote') {
    const { baseUrl, apiKey, apiSecret } = upstream;
    const url = new URL(baseUrl);
    if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
      logger.warn(
        { baseUrl },
        'CATALOGUE_BASE_URL is plain http to another host: the API credentials cross the network unencrypted',
      );
    }
    return { baseUrl, apiKey, apiSecret, catalogue: null };
  }

  const apiKey = randomBytes(24).toString('base64url');
  const apiSecret = randomBytes(32).toString('base64url');
  const catalogueLog = logger.child({ component: 'catalogue' });
  const catalogue = await startCatalogue({
    host: '127.0.0.1',
    port: upstream.port,
    apiKey,
    apiSecret,
    dataDir: upstream.dataDir,
    // Root-relative thumbnail URLs, served through this origin (thumbnail-proxy.ts).
    thumbnailBaseUrl: '',
    faults: upstream.faults,
    faultControl: upstream.faultControl,
    logger: {
      info: (obj, msg) => catalogueLog.info(obj, msg),
      warn: (obj, msg) => catalogueLog.warn(obj, msg),
    },
  });
  logger.info(
    { url: catalogue.url, faultControl: upstream.faultControl, faults: upstream.faults },
    'embedded catalogue started (credentials generated for this run)',
  );
  return { baseUrl: catalogue.url, apiKey, apiSecret, catalogue };
}
