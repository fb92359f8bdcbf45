import { readCatalogueConfig } from './config.ts';
import { startCatalogue } from './start-catalogue.ts';

// `npm run catalogue`: the lookup service alone, for trying the API with curl or pointing
// another explorer at it.

const config = readCatalogueConfig();
const logger = {
  info: (obj: object, msg?: string) => console.log(JSON.stringify({ level: 'info', msg, ...obj })),
  warn: (obj: object, msg?: string) => console.warn(JSON.stringify({ level: 'warn', msg, ...obj })),
};
const catalogue = await startCatalogue({
  host: config.host,
  port: config.port,
  apiKey: config.apiKey,
  apiSecret: config.apiSecret,
  dataDir: config.dataDir,
  thumbnailBaseUrl: config.thumbnailBaseUrl,
  faults: config.faults,
  faultControl: config.faultControl,
  logger,
});
if (config.generatedCredentials) {
  // Standalone and on loopback: the operator needs these to call the service at all.
  console.log(
    `No CATALOGUE_API_KEY / CATALOGUE_API_SECRET set; this run accepts:\n` +
      `  curl -H 'API-Key: ${config.apiKey}' -H 'API-Secret: ${config.apiSecret}' '${catalogue.url}/api/v1/playlist?id=PLcatalogueDemoPlaylist0101items00'`,
  );
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void catalogue.close().then(() => process.exit(0)));
}
