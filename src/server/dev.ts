import { readFileSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import { getRequestListener } from '@hono/node-server';
import { createServer as createViteServer } from 'vite';
import { SERVER_ENTRY_MODULE, type RenderApp } from '../shared/app-render.ts';
import type { AppShell } from './rendering/app-html.ts';
import { describeConfig, loadServerConfigOrExit } from './config.ts';
import { createHttpEdge } from './process/http-server.ts';
import { createLogger } from './observability/logger.ts';
import { startExplorer } from './process/start-explorer.ts';

// `npm run dev`: the very same explorer (upstream, cache, quota, errors, server rendering) with
// Vite's dev server inside it, in middleware mode, for the app's modules and hot reload. Vite
// answers what it knows (source modules, its client, public files); everything else, the app's
// pages among them, goes to the explorer, which renders pages with the app's server entry as
// Vite loads it from source. Two differences from `npm start`: pages carry no CSP, since Vite's
// dev client injects inline scripts, and cached pages take no fast path (cached-page-fast-path.ts):
// the app answers them, with the same bytes, a little slower. The HTTP edge (timeouts, answers
// to what node refuses, a stop that resets no one) is npm start's, http-server.ts.

const config = loadServerConfigOrExit();
const logger = createLogger(config.logLevel);
logger.info({ config: describeConfig(config) }, 'starting (dev)');

// Vite wants the server (for its hot-reload socket) before there is anything to route requests
// to; none arrives before listen(), by which time `route` is set.
let route: RequestListener = () => {};
const edge = createHttpEdge((req, res) => route(req, res), {
  timeouts: config.http,
  logger: logger.child({ component: 'http' }),
});
const { server } = edge;
const vite = await createViteServer({
  server: { middlewareMode: { server }, host: config.host },
  appType: 'custom',
});

const devShell: AppShell = {
  template: (url) => vite.transformIndexHtml(url, readFileSync('index.html', 'utf8')),
  preloads: () => '',
  // Vite's dev server injects styles with scripts; nothing is inlined.
  styleHashes: [],
  render: async (request) => {
    const entry = (await vite.ssrLoadModule(`/${SERVER_ENTRY_MODULE}`)) as { render: RenderApp };
    return entry.render(request);
  },
};
const explorer = await startExplorer(config, logger, { devShell });
const explorerListener = getRequestListener(async (request) => {
  const response = await explorer.app.fetch(request);
  if (response.headers.get('Content-Type')?.startsWith('text/html'))
    response.headers.delete('Content-Security-Policy');
  return response;
});

route = (req, res) => vite.middlewares(req, res, () => void explorerListener(req, res));
server.listen(config.port, config.host, () => {
  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  logger.info(
    { url: `http://${shown}:${config.port}`, upstream: explorer.upstreamUrl },
    'explorer dev server listening',
  );
});

async function stop() {
  await vite.close();
  await edge.shutdown(config.shutdownDeadlineMs);
  await explorer.close();
  process.exit(0);
}
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
