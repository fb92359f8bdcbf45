import './process/production-mode.ts';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getHeapStatistics } from 'node:v8';
import { describeConfig, loadServerConfigOrExit } from './config.ts';
import { createHttpEdge } from './process/http-server.ts';
import { createLogger } from './observability/logger.ts';
import { createMetricsServer } from './observability/metrics-server.ts';
import { memoryPlan } from './process/memory-plan.ts';
import { sideCaches } from './process/side-caches.ts';
import { startExplorer } from './process/start-explorer.ts';
import { StateDirInUse } from './disk/state-dir-lock.ts';

// `npm start`: reads the configuration, starts the explorer and serves it. All the behaviour
// lives in create-server-app.ts and its parts (cached pages take a fast path in front of it,
// cached-page-fast-path.ts), behind the HTTP edge (http-server.ts: timeouts, answers to what
// node refuses, a stop that resets no one); this file only wires and stops them.

/** How long a just-started process waits for its first request before it warms its renderer. */
const WARM_UP_IDLE_MS = 1_000;

const config = loadServerConfigOrExit();

const logger = createLogger(config.logLevel);
logger.info({ config: describeConfig(config) }, 'starting');
const memory = memoryPlan({
  cacheMaxBytes: config.cacheMaxBytes,
  heapLimitBytes: getHeapStatistics().heap_size_limit,
  containerBytes: process.constrainedMemory(),
  sideCaches: sideCaches(),
});
if (memory.verdict === 'cannot') {
  logger.fatal({ memory }, `cannot start: ${memory.advice.join('; ')}`);
  logger.flush();
  process.exit(1);
}
logger[memory.advice.length > 0 ? 'warn' : 'info']({ memory }, 'memory plan');
const explorer = await startExplorer(config, logger, { memoryPlanMb: memory.needMb }).catch(
  (error: unknown) => {
    // Another process holds STATE_DIR: said in one line, naming the folder and its holder.
    if (!(error instanceof StateDirInUse)) throw error;
    logger.fatal(
      { stateDir: error.dir, holderPid: error.holderPid },
      `cannot start: ${error.message}`,
    );
    logger.flush();
    process.exit(1);
  },
);

const edge = createHttpEdge(explorer.listener, {
  timeouts: config.http,
  logger: logger.child({ component: 'http' }),
});
const { server } = edge;
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
  // Loading the renderer holds the event loop for a while: it waits for the first request (a
  // probe, as a rule) to have its answer, or for a moment without one.
  let warmed = false;
  const warmUp = () => {
    if (warmed) return;
    warmed = true;
    clearTimeout(idle);
    setImmediate(() => void explorer.warmUp());
  };
  const idle = setTimeout(warmUp, WARM_UP_IDLE_MS);
  server.once('request', (_request, response: ServerResponse) => response.once('finish', warmUp));
});

// Metrics on a private port when one is configured (metrics-server.ts); it closes with the
// process, which is all a scraper needs.
if (explorer.metrics !== null && config.metrics.port !== 0) {
  const metricsServer = createMetricsServer(explorer.metrics);
  metricsServer.on('error', (error: NodeJS.ErrnoException) =>
    logger.error({ err: { code: error.code, message: error.message } }, 'cannot serve metrics'),
  );
  metricsServer.listen(config.metrics.port, config.metrics.host, () =>
    logger.info({ port: config.metrics.port, host: config.metrics.host }, 'metrics listening'),
  );
  metricsServer.unref();
}

/**
 * Of the shutdown deadline, what closing the upstream pools and the embedded catalogue may
 * take once the connections are gone; they get the rest.
 */
const closingReserveMs = (deadlineMs: number) => Math.min(1_000, Math.floor(deadlineMs / 5));

// Graceful shutdown, so a deploy drops no request and resets no connection: the edge stops
// accepting, answers what is in flight and closes keep-alive connections between requests;
// then the upstream pools and the embedded catalogue close. The process is gone by the
// deadline whatever happens.
let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  const deadlineMs = config.shutdownDeadlineMs;
  logger.info({ signal, deadlineMs }, 'shutting down');
  explorer.markStopping();
  const hardStop = setTimeout(() => {
    logger.error({ deadlineMs }, 'did not stop within the deadline; exiting');
    logger.flush();
    process.exit(1);
  }, deadlineMs);
  hardStop.unref();

  const { forced, ms } = await edge.shutdown(deadlineMs - closingReserveMs(deadlineMs));
  try {
    await explorer.close();
  } catch (error) {
    logger.error({ err: { message: (error as Error).message } }, 'error while closing');
  }
  logger.info({ connectionsMs: ms, forced }, 'stopped');
  logger.flush();
  process.exit(0);
}
process.once('SIGTERM', () => void shutdown('SIGTERM'));
process.once('SIGINT', () => void shutdown('SIGINT'));
