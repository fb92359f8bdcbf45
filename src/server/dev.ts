import { createServer } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { createServer as createViteServer } from 'vite';
import { describeConfig, loadServerConfigOrExit } from './config.ts';
import { createLogger } from './logger.ts';
import { startExplorer } from './start-explorer.ts';

// `npm run dev`: Vite's dev server with hot reload for the app, and the very same explorer app
// (upstream, cache, quota, errors) for the API, on one origin. Vite runs in middleware mode inside
// our HTTP server and gets every request that is not the explorer's. Two differences from `npm
// start`: Vite serves index.html (so no initial-page block and no 404 status for unknown routes),
// and Vite's responses carry no CSP (its dev client injects inline scripts).

const EXPLORER_PATHS = /^\/(?:api|thumbnails)(?:[/?]|$)|^\/(?:healthz|readyz)(?:\?|$)/;

const config = loadServerConfigOrExit();

const logger = createLogger(config.logLevel);
logger.info({ config: describeConfig(config) }, 'starting (dev)');
const explorer = await startExplorer(config, logger, { serveStatic: false });
const explorerListener = getRequestListener(explorer.app.fetch);

const server = createServer();
const vite = await createViteServer({
  server: { middlewareMode: { server }, host: config.host },
  appType: 'spa',
});
server.on('request', (req, res) => {
  if (EXPLORER_PATHS.test(req.url ?? '/')) void explorerListener(req, res);
  else vite.middlewares(req, res);
});
server.listen(config.port, config.host, () => {
  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  logger.info(
    { url: `http://${shown}:${config.port}`, upstream: explorer.upstreamUrl },
    'explorer dev server listening',
  );
});

async function stop() {
  await vite.close();
  server.closeAllConnections();
  server.close();
  await explorer.close();
  process.exit(0);
}
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
