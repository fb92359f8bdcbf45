import type { Logger } from 'pino';
import type { ClientRateLimit } from '../quota/client-rate-limit.ts';
import type { RedisConfig } from '../config.ts';
import type { UpstreamBreaker } from '../upstream/breaker.ts';
import type { DeploymentState } from './deployment-state.ts';
import { registerRedisMetrics, type SharedStateFigures } from './redis-metrics.ts';
import { createRedisConnection, type RedisConnection } from './redis-connection.ts';
import { createSharedBreakerSignal, type SharedBreakerSignal } from './shared-breaker.ts';
import { createSharedClientLimit } from './shared-client-limit.ts';
import { createSharedCards } from './shared-cards.ts';
import { createSharedPages, type SharedPages } from './shared-pages.ts';
import { sharedJobStore } from './shared-jobs.ts';
import { createSharedQuota, type SharedQuotaGuard } from './shared-quota.ts';
import { createWalkLeases, type SharedWalkLeases } from './shared-walks.ts';

// The deployment's state shared by replicas through Redis (the port is deployment-state.ts),
// built from the configuration in one place: the quota, the per-client allowance, the page
// cache's second level with claims and holds, the breaker's signal, the counts of whole-list
// walks and the preview cards drawn, over one connection. Each keeps the interface of the in-memory part it
// stands in for.

export interface SharedState extends DeploymentState {
  connection: RedisConnection;
  quota: SharedQuotaGuard;
  clientRateLimit: ClientRateLimit;
  secondLevel: SharedPages;
  /** Whole-list walks counted for the deployment: per client, and per list. */
  walkLeases: SharedWalkLeases;
  figures(): SharedStateFigures;
  /** Ties the breaker to the others' (after the breaker is built: it needs `opened`). */
  shareBreaker(breaker: () => UpstreamBreaker): SharedBreakerSignal;
}

export function createSharedState(options: {
  config: RedisConfig;
  /** Calls per window, the window in seconds, and the readers' reserve (config.ts). */
  quotaBudget: number;
  quotaWindowSeconds: number;
  jobReaderReserve: number;
  clientRateLimit: { burst: number; perSecond: number };
  /** How long a claim on a page lasts: the upstream's whole deadline, and a margin. */
  claimMs: number;
  /** Whole-list walks one client may run at once, across the deployment. */
  walksPerClient: number;
  /** The upstream's key (disk/upstream-scope.ts), and how long a finished job is kept. */
  scope: string;
  jobResultTtlMs: number;
  logger: Logger;
}): SharedState {
  const { config, logger } = options;
  const connection = createRedisConnection({
    url: config.url,
    commandTimeoutMs: config.commandTimeoutMs,
    logger: logger.child({ component: 'redis' }),
  });
  const quota = createSharedQuota({
    connection,
    budgetPerHour: options.quotaBudget,
    windowSeconds: options.quotaWindowSeconds,
    readerReserve: options.jobReaderReserve,
    replicas: config.replicas,
    outageShare: config.outageShare,
    keyPrefix: config.keyPrefix,
  });
  const clientRateLimit = createSharedClientLimit({
    connection,
    ...options.clientRateLimit,
    replicas: config.replicas,
    keyPrefix: config.keyPrefix,
  });
  const pages = createSharedPages({
    connection,
    keyPrefix: config.keyPrefix,
    claimMs: options.claimMs,
  });
  const walks = createWalkLeases({
    connection,
    keyPrefix: config.keyPrefix,
    walksPerClient: options.walksPerClient,
  });
  let breakerSignal: SharedBreakerSignal | undefined;
  const budgets: SharedQuotaGuard[] = [];

  const figures = (): SharedStateFigures => {
    const { state, transitions } = connection.stats();
    const { secondLevelHits, merged } = pages.stats();
    return {
      state,
      transitions,
      secondLevelHits,
      mergedAcrossReplicas: merged,
      quotaFallback: quota.fallbackStats(),
    };
  };

  return {
    connection,
    quota,
    clientRateLimit,
    secondLevel: pages,
    walkLeases: walks,
    jobStore: sharedJobStore({
      connection,
      keyPrefix: config.keyPrefix,
      scope: options.scope,
      resultTtlMs: options.jobResultTtlMs,
    }),
    cards: createSharedCards({ connection, keyPrefix: config.keyPrefix }),
    budget(name, perWindow) {
      // The quota's own scripts over keys of their own: one window for every replica. A part
      // of the quota holds no lease: the calls it allows pass the quota too, and while Redis
      // cannot be asked the quota's lease is for readers.
      const budget = createSharedQuota({
        connection,
        budgetPerHour: perWindow,
        windowSeconds: options.quotaWindowSeconds,
        replicas: config.replicas,
        outageShare: 0,
        keyPrefix: `${config.keyPrefix}${name}:`,
      });
      budgets.push(budget);
      return budget;
    },
    down: () => (connection.up() ? undefined : (connection.reason() ?? connection.state())),
    // Past one attempt to connect, the replica serves alone until the link comes up.
    settled: async () => {
      await connection.settled();
    },
    figures,
    registerMetrics: (registers) => registerRedisMetrics(registers, figures),
    shareBreaker(breaker) {
      breakerSignal = createSharedBreakerSignal({
        connection,
        keyPrefix: config.keyPrefix,
        breaker,
      });
      return breakerSignal;
    },
    async close() {
      quota.close();
      for (const budget of budgets) budget.close();
      pages.close();
      walks.close();
      breakerSignal?.close();
      await connection.close();
    },
  };
}
