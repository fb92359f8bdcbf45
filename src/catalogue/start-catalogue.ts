import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { openDemoStore } from './catalogue-db.ts';
import { createCatalogueApp } from './create-catalogue-app.ts';
import { NO_FAULTS, type FaultSettings } from './fault-settings.ts';
import { withHugeChannel } from './huge-channel.ts';
import { createThumbnailFiles } from './thumbnail-files.ts';

export interface StartCatalogueOptions {
  /** Default 127.0.0.1: the embedded catalogue is reached over loopback only. */
  host?: string;
  /** Default 0: any free port. */
  port?: number;
  apiKey: string;
  apiSecret: string;
  /** See CatalogueAppOptions.continuationKey; tests set it to make a continuation of their own. */
  continuationKey?: string;
  /** Where the SQLite file and the thumbnails' folder live; default ./data. */
  dataDir?: string;
  /** See CatalogueAppOptions.thumbnailBaseUrl. */
  thumbnailBaseUrl?: string;
  faults?: Partial<FaultSettings>;
  faultControl?: boolean;
  logger?: { info(obj: object, msg?: string): void; warn(obj: object, msg?: string): void };
}

export interface StartedCatalogue {
  url: string;
  close(): Promise<void>;
}

/** Opens (building on first run) the demo database and serves the lookup service over HTTP. */
export async function startCatalogue(options: StartCatalogueOptions): Promise<StartedCatalogue> {
  const started = Date.now();
  const dataDir = options.dataDir ?? 'data';
  // The huge channel is made on demand in front of the database, never stored in it.
  const store = withHugeChannel(openDemoStore(dataDir));
  const thumbnails = createThumbnailFiles({
    dataDir,
    has: (kind, id) => (kind === 'vi' ? store.videoExists(id) : store.playlist(id) !== undefined),
  });
  const app = createCatalogueApp({
    store,
    apiKey: options.apiKey,
    apiSecret: options.apiSecret,
    continuationKey: options.continuationKey,
    thumbnailBaseUrl: options.thumbnailBaseUrl,
    thumbnails,
    faults: { settings: { ...NO_FAULTS, ...options.faults } },
    faultControl: options.faultControl ?? false,
  });
  const host = options.host ?? '127.0.0.1';
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: host, port: options.port ?? 0 }, () =>
      resolve(s),
    );
    s.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  options.logger?.info(
    { url, startupMs: Date.now() - started, faultControl: options.faultControl ?? false },
    'catalogue listening',
  );
  return {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          store.close();
          resolve();
        });
        // Keep-alive sockets would hold close() open until they time out.
        if ('closeAllConnections' in server) server.closeAllConnections();
      }),
  };
}
