import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import type { Logger } from 'pino';
import { DEMO_ENTRIES } from '../../catalogue/demo-fixtures.ts';
import { createChannelTitles } from '../rendering/channel-titles.ts';
import type { ServerConfig } from '../config.ts';
import { createAppHtml, type AppShell } from '../rendering/app-html.ts';
import { loadBuiltShell } from '../rendering/app-shell.ts';
import { cachedPageFastPath } from '../pages/cached-page-fast-path.ts';
import { createServerApp } from './create-server-app.ts';
import { createLinkPreviews } from '../rendering/link-preview.ts';
import { createPreviewCards } from '../cards/preview-cards.ts';
import { createRequestLogger } from '../observability/request-log.ts';
import { explorerListener } from './node-listener.ts';
import { createUpstreamBreaker } from '../upstream/breaker.ts';
import { createUpstreamSlots, withSlots } from '../upstream/slots.ts';
import { loadStaticSite } from '../rendering/static-files.ts';
import {
  meteredListener,
  meteredPageSource,
  meteredRenderLimit,
  meteredShell,
  meteredUpstream,
} from '../observability/metered-parts.ts';
import { createMetrics, type ExplorerMetrics } from '../observability/metrics.ts';
import { createLocalState, type DeploymentState } from '../shared-state/deployment-state.ts';
import { buildPageSource } from '../pages/build-page-source.ts';
import { createThumbnailProxy } from '../upstream/thumbnail-proxy.ts';
import { openDiskPages } from '../pages/disk-pages.ts';
import { openQuotaJournal } from '../quota/quota-journal.ts';
import { lockStateDir, StateDirUnlockable, type StateDirLock } from '../disk/state-dir-lock.ts';
import { upstreamScope } from '../disk/upstream-scope.ts';
import { buildJobs, openLocalJobStore } from '../jobs/build-jobs.ts';
import { openStateFile, STATE_FILE } from './state-file.ts';
import { createUpstreamClient } from '../upstream/client.ts';
import {
  createRoundTrip,
  REMOTE_ROUND_TRIP_PRIOR_MS,
  timedUpstream,
} from '../upstream/round-trip.ts';
import { createClientShares, withClientShares } from '../quota/client-shares.ts';
import { createWalkRegistry } from '../whole-list/list-walk.ts';
import { WALKS_PER_CLIENT } from '../../shared/whole-list.ts';
import { resolveUpstreamTarget } from '../upstream/target.ts';
import { createClientRateLimit } from '../quota/client-rate-limit.ts';
import { createClientTurns } from '../http/client-turns.ts';
import { createChainWarmer, type ChainWarmer } from '../warming/chain-warmer.ts';
import { registerChainWarmMetrics } from '../warming/warm-metrics.ts';
import { warmerClient, withWarmShare } from '../warming/warm-share.ts';
import { withChainWarming } from '../warming/warm-trigger.ts';

// The composition root: from a parsed configuration to a running explorer app. Every part is
// built here (the upstream, embedded or remote, is chosen by upstream/target.ts) and handed to
// the app factory, create-server-app.ts. index.ts and dev.ts share this.

export interface Explorer {
  app: ReturnType<typeof createServerApp>;
  /** For node:http: the fast path for cached pages in front of the app (node-listener.ts). */
  listener: RequestListener;
  /** Where lookups go (without credentials), for the start-up log. */
  upstreamUrl: string;
  /** The registry /metrics reads, when metrics are on (a token or a port is configured). */
  metrics: ExplorerMetrics | null;
  /** /readyz answers 503 from now on. */
  markStopping(): void;
  /**
   * Loads what the first visitors would otherwise wait for (the renderer): called once the
   * server listens, so that the process answers at once; /readyz says `starting` meanwhile.
   */
  warmUp(): Promise<void>;
  /** Closes the upstream pools and the embedded catalogue. */
  close(): Promise<void>;
}

export interface StartOptions {
  /** Vite's dev server, rendering from source (dev.ts); else the build. */
  devShell?: AppShell;
  /** What the memory plan said at start this process needs (index.ts), for /metrics. */
  memoryPlanMb?: number;
}

/**
 * Starts the explorer. Without Redis, it first takes STATE_DIR for this process alone
 * (disk/state-dir-lock.ts): while another process holds it, this throws StateDirInUse, before
 * anything else has started.
 */
export async function startExplorer(
  config: ServerConfig,
  logger: Logger,
  options: StartOptions = {},
): Promise<Explorer> {
  const { stateDir, lock } = await holdStateDir(config, logger);
  let explorer: Explorer;
  try {
    explorer = await assembleExplorer({ ...config, stateDir }, logger, options);
  } catch (error) {
    lock?.release();
    throw error;
  }
  return {
    ...explorer,
    async close() {
      try {
        await explorer.close();
      } finally {
        // Only once the state files are closed: the next holder must find them written.
        lock?.release();
      }
    },
  };
}

/**
 * The state folder this process may use, held: none with Redis (replicas keep nothing there)
 * or without STATE_DIR; none either, and said so, when it cannot be locked at all (unwritable):
 * state without the lock could be shared unknowingly, and a state file never stops the server.
 */
async function holdStateDir(
  config: ServerConfig,
  logger: Logger,
): Promise<{ stateDir: string | null; lock: StateDirLock | null }> {
  if (config.redis !== null || config.stateDir === null) return { stateDir: null, lock: null };
  try {
    return { stateDir: config.stateDir, lock: await lockStateDir(config.stateDir) };
  } catch (error) {
    if (!(error instanceof StateDirUnlockable)) throw error;
    logger.error(
      { err: error.cause, stateDir: error.dir },
      `${error.message}: the window's spending and the pages are kept in memory only`,
    );
    return { stateDir: null, lock: null };
  }
}

async function assembleExplorer(
  config: ServerConfig,
  logger: Logger,
  options: StartOptions,
): Promise<Explorer> {
  const { baseUrl, apiKey, apiSecret, catalogue } = await resolveUpstreamTarget(
    config.upstream,
    logger,
  );
  // With REDIS_URL, the replicas share quota, allowances, pages, walks and breaker openings
  // through Redis; without it, this process keeps them in its own memory, the hour's spending
  // and the pages it fetched also on disk (STATE_DIR: quota/quota-journal.ts,
  // pages/disk-pages.ts) to outlive it, each row keyed by the upstream it is true of
  // (disk/upstream-scope.ts). Chosen here, once; the Redis client and its limiter library load
  // only in a replica that has Redis.
  const scope = upstreamScope(config.upstream);
  // A process alone keeps the window, the pages and the jobs in STATE_DIR's one database.
  const localState = () => {
    const db = config.stateDir === null ? null : openStateFile(config.stateDir, logger);
    const path = config.stateDir === null ? '' : join(config.stateDir, STATE_FILE);
    return createLocalState({
      ...config,
      stateFile: db,
      journal: db === null ? null : openQuotaJournal(db, path, scope, logger),
      pages:
        db === null || config.diskCacheMaxBytes === 0
          ? null
          : openDiskPages(db, path, { maxBytes: config.diskCacheMaxBytes, scope, logger }),
      jobStore: openLocalJobStore({ stateDir: config.stateDir, db, scope }),
    });
  };
  const state: DeploymentState =
    config.redis === null
      ? localState()
      : (await import('../shared-state/shared-state.ts')).createSharedState({
          config: config.redis,
          quotaBudget: config.quotaBudget,
          quotaWindowSeconds: config.quotaWindowSeconds,
          jobReaderReserve: config.jobReaderReserve,
          clientRateLimit: config.clientRateLimit,
          // A claim outlives the claimant's upstream call (its deadline covers the retries).
          claimMs: config.upstreamTimeoutMs + 500,
          walksPerClient: WALKS_PER_CLIENT,
          scope,
          jobResultTtlMs: config.jobResultTtlSeconds * 1000,
          logger,
        });
  const { quota } = state;
  const upstream = createUpstreamClient({
    baseUrl,
    apiKey,
    apiSecret,
    quota,
    logger: logger.child({ component: 'upstream' }),
    deadlineMs: config.upstreamTimeoutMs,
    retries: config.upstreamRetries,
  });
  // How fast the upstream answers, for how long a person's first view waits for its rows.
  const roundTrip = createRoundTrip(
    config.upstream.kind === 'remote'
      ? REMOTE_ROUND_TRIP_PRIOR_MS
      : (config.upstream.faults.latencyMs ?? 0),
  );
  const thumbnails = catalogue === null ? null : createThumbnailProxy({ baseUrl: catalogue.url });
  const staticSite =
    options.devShell !== undefined
      ? null
      : loadStaticSite(config.staticRoot, {
          onMissingBuild: () =>
            logger.warn(
              { staticRoot: config.staticRoot },
              'no built app (index.html) found: run `npm run build`; serving a placeholder page',
            ),
        });

  const { failures } = config;
  const breaker = createUpstreamBreaker({
    threshold: failures.breakerThreshold,
    openMs: failures.breakerOpenMs,
    onStateChange: (change, stats) => {
      logger.warn({ breaker: change, openMs: stats.openMs }, 'upstream breaker changed state');
      if (change === 'open') breakerSignal.opened(stats.openMs);
    },
  });
  const breakerSignal = state.shareBreaker(() => breaker);
  const slots = createUpstreamSlots({
    limit: failures.maxInFlight,
    queueLimit: failures.maxQueued,
  });
  // Slots outermost in time: a call waiting for one has not spent its deadline yet.
  // The breaker is asked again once a call has its slot: one refusal stops those queued behind it.
  const slotted = withSlots(
    timedUpstream(upstream, roundTrip),
    slots,
    config.upstreamTimeoutMs,
    () => breaker.holding(),
  );
  // Warming chains behind readers (warming/): its share of the window is a budget of its own,
  // held for the whole deployment, and it is the warmer's allowance in the page source.
  const { chainWarm } = config;
  const warmShare = chainWarm === null ? null : state.budget('chain-warm', chainWarm.budget);
  const warmer = warmerClient();
  const metricsOn = config.metrics.token !== undefined || config.metrics.port !== 0;
  const metrics = metricsOn
    ? createMetrics({
        memoryPlanMb: options.memoryPlanMb,
        quota,
        cache: { stats: () => pages.cache.stats() },
        breaker: () => breaker.stats(),
        upstreamSlots: () => slots.stats(),
        walks: () => walks.stats(),
        more: [
          state.registerMetrics,
          ...(warmShare === null
            ? []
            : [
                (registers: Parameters<typeof registerChainWarmMetrics>[0]) =>
                  registerChainWarmMetrics(registers, () => chainWarmer!.stats(), warmShare),
              ]),
        ],
      })
    : null;
  const channelTitles = createChannelTitles();
  // The demo's channels are named by its entries, which the app also reads on a channel view:
  // the server's header then names them as the hydrated one does, with nothing moving.
  if (catalogue !== null)
    for (const entry of DEMO_ENTRIES)
      if (entry.kind === 'channel') channelTitles.remember(entry.id, entry.title);
  // A person's requests meet the burst allowance, then their share of the window; a walk
  // reserves from the same share before it starts (routes/whole-list.ts).
  const shares = createClientShares({
    perClient: Math.max(1, Math.floor(config.clientShareOfWindow * config.quotaBudget)),
    windowSeconds: config.quotaWindowSeconds,
  });
  const people = withClientShares(state.clientRateLimit, shares);
  const pages = buildPageSource({
    upstream: metrics ? meteredUpstream(slotted, metrics) : slotted,
    cacheMaxBytes: config.cacheMaxBytes,
    clientRateLimit: warmShare === null ? people : withWarmShare(people, warmer, warmShare),
    secondLevel: state.secondLevel,
    // Channel names for link previews, from every page that passes, API lookups included.
    onPage: channelTitles.learnFromPage,
    backoff: { initialMs: failures.backoffMs, maxMs: failures.backoffMaxMs },
    breaker,
    staleAfterMs: failures.staleAfterMs,
    // Another replica's fetch gets as long as a fetch of our own would.
    secondLevelWaitMs: config.upstreamTimeoutMs + 500,
  });
  const pageSource = metrics ? meteredPageSource(pages.pageSource, metrics) : pages.pageSource;
  // Walks read through the metered source: their pages count like any reader's.
  const walks = createWalkRegistry({
    pageSource,
    leases: state.walkLeases,
    walksAtOnce: config.walksAtOnce,
  });
  // The warmer reads through the metered source too: its pages and calls count like anyone's.
  const chainWarmer: ChainWarmer | null =
    chainWarm === null
      ? null
      : createChainWarmer({
          pageSource,
          client: warmer,
          lists: chainWarm.lists,
          idleMs: chainWarm.idleMs,
          // People first: while their calls hold half the slots or wait for one, it waits.
          upstreamBusy: () => {
            const { active, queued, limit } = slots.stats();
            return queued > 0 || active >= limit / 2;
          },
          // The window's last share is for people: below it, warming stops.
          quotaToSpare: () => {
            const { budget, usedInWindow } = quota.stats();
            return budget - usedInWindow > chainWarm.budget;
          },
        });

  const builtShell =
    options.devShell === undefined && staticSite ? loadBuiltShell(staticSite, logger) : null;
  const shell = options.devShell ?? builtShell;
  const appHtml =
    shell &&
    createAppHtml(
      metrics ? meteredShell(shell, metrics) : shell,
      createLinkPreviews({ pageSource, channelTitles }),
      logger.child({ component: 'ssr' }),
      channelTitles,
    );

  // Renders spend this process's CPU, so each process keeps its own allowance of them (no
  // Redis round trip before a render): behind a balancer, a client gets each replica's.
  const renderLimit = createClientRateLimit(config.renderRateLimit);
  // Jobs read through the metered source too, paced by the jobs' part of the window
  // (jobs/job-pacer.ts), and kept in STATE_DIR, where a restart takes them up again.
  const jobs = buildJobs({
    store: state.jobStore,
    pageSource,
    quota,
    shares,
    readerReserve: config.jobReaderReserve,
    atOnce: config.jobsAtOnce,
    resultTtlMs: config.jobResultTtlSeconds * 1000,
    leaseMs: config.jobLeaseSeconds * 1000,
    logger,
  });
  let stopping = false;
  // From the start until the renderer is loaded (warmUp, once the server listens).
  let warming = builtShell !== null && builtShell.render !== null;
  const requestLogger = createRequestLogger(logger);
  const app = createServerApp({
    pageSource,
    upstream,
    staticSite,
    appHtml,
    publicUrl: config.publicUrl,
    thumbnails,
    cards: createPreviewCards({
      pageSource,
      channelTitles,
      thumbnails,
      store: state.cards,
      drawLimit: renderLimit,
    }),
    channelTitles,
    demoEntries: catalogue === null ? null : DEMO_ENTRIES,
    logger,
    requestLogger,
    trustProxy: config.trustProxy,
    renderLimit: metrics ? meteredRenderLimit(renderLimit, metrics) : renderLimit,
    firstPaintWaitMs: config.firstPaintWaitMs,
    upstreamRoundTripMs: roundTrip.typicalMs,
    isStopping: () => stopping,
    isStarting: () => warming,
    sharingDown: state.down,
    metrics: metrics ? { registry: metrics, token: config.metrics.token } : undefined,
    wholeList: { quota, shares, channelTitles, walks, stallMs: config.http.idleMs },
    clientAllowance: config.clientRateLimit,
    jobs: { jobs: jobs.service, store: jobs.store },
  });
  const served = explorerListener(
    app,
    cachedPageFastPath({ pageSource, requests: requestLogger }),
    { turns: createClientTurns(), trustProxy: config.trustProxy },
  );
  // In front of the fast path, so that pages answered from the cache count as reading too.
  const listener =
    chainWarmer === null
      ? served
      : withChainWarming(served, { warmer: chainWarmer, trustProxy: config.trustProxy });
  // Listening only then: a replica's first requests are counted with the others', not alone.
  await state.settled();

  return {
    app,
    listener: metrics ? meteredListener(listener, metrics) : listener,
    metrics,
    upstreamUrl: baseUrl,
    markStopping: () => {
      stopping = true;
    },
    async warmUp() {
      await builtShell?.warmUp();
      warming = false;
    },
    async close() {
      chainWarmer?.close();
      // Jobs stop first: unfinished, they are taken up again by the next process.
      await jobs.close();
      await Promise.allSettled([upstream.close(), thumbnails?.close(), state.close()]);
      await catalogue?.close();
    },
  };
}
