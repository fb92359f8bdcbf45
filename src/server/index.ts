import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describeConfig, loadServerConfigOrExit } from './config.ts';
import { createLogger } from './logger.ts';
import { startExplorer } from './start-explorer.ts';

// `npm start`: reads the configuration, starts the explorer and serves it. All the behaviour
// lives in create-server-app.ts and its parts (cached pages take a fast path in front of it,
// cached-page-fast-path.ts); this file only wires and stops them.

/** In-flight requests get this long to finish after SIGTERM before connections are cut. */
const SHUTDOWN_GRACE_MS = 10_000;

const config = loadServerConfigOrExit();

const logger = createLogger(config.logLevel);
logger.info({ config: describeConfig(config) }, 'starting');
const explorer = await startExplorer(config, logger);

const server = createServer(explorer.listener);
server.on('error', (error: NodeJS.ErrnoException) => {
  logger.fatal({ err: { code: error.code, message: error.message } }, 'cannot listen');
  void explorer.close().finally(() => process.exit(1));
});
server.listen(config.port, config.host, () => {
  const { port } = server.address() as AddressInfo;
  const shown = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  logger.info(
    { url: `http://${shown}:${port}`, upstream: explorer.upstreamUrl },
    'explorer listening',
  );
});

// Graceful shutdown, so a deploy drops no request: stop accepting, let in-flight requests
// finish, then close the upstream pools and the embedded catalogue.
let stopping = false;
function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  logger.info({ signal }, 'shutting down');
  explorer.markStopping();
  const idle = setInterval(
    () => 'closeIdleConnections' in server && server.closeIdleConnections(),
    100,
  );
  const force = setTimeout(() => {
    logger.warn(
      { graceMs: SHUTDOWN_GRACE_MS },
      'in-flight requests did not finish in time; closing connections',
    );
    if ('closeAllConnections' in server) server.closeAllConnections();
  }, SHUTDOWN_GRACE_MS);
  force.unref();
  server.close(() => {
    clearInterval(idle);
    clearTimeout(force);
    void explorer
      .close()
      .catch((error: unknown) =>
        logger.error({ err: { message: (error as Error).message } }, 'error while closing'),
      )
      .finally(() => {
        logger.info('stopped');
        logger.flush();
        process.exit(0);
      });
  });
}
process.once('SIGTERM', () => shutdown('SIGTERM'));
process.once('SIGINT', () => shutdown('SIGINT'));
