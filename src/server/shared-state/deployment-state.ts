import type { DatabaseSync } from 'node:sqlite';
import type { Registry } from 'prom-client';
import { NO_CARD_STORE, type CardStore } from '../cards/card-store.ts';
import type { JobStore } from '../jobs/job-store.ts';
import type { DiskPages } from '../pages/disk-pages.ts';
import type { SecondLevel } from '../pages/second-level.ts';
import { NO_SECOND_LEVEL } from '../pages/second-level.ts';
import { createClientRateLimit, type ClientRateLimit } from '../quota/client-rate-limit.ts';
import { createQuotaGuard, type QuotaGuard } from '../quota/quota-guard.ts';
import type { QuotaJournal } from '../quota/quota-journal.ts';
import type { UpstreamBreaker } from '../upstream/breaker.ts';
import { LOCAL_WALK_LEASES, type WalkLeases } from '../whole-list/walk-leases.ts';

// Where the deployment's state lives: what must hold for every replica at once (the window's
// quota, each client's allowance, pages beyond this process, whole-list walks, the breaker's
// openings). One port, two adapters: this process's memory when it runs alone, and Redis when
// replicas share (shared-state.ts). The composition root chooses once; every part it hands
// these to works the same over either, and none asks which it got.

export interface DeploymentState {
  quota: QuotaGuard;
  /** Drawn preview cards, for the other replicas. */
  cards: CardStore;
  clientRateLimit: ClientRateLimit;
  secondLevel: SecondLevel;
  walkLeases: WalkLeases;
  /** Where whole-list jobs are kept and leased. */
  jobStore: JobStore;
  /**
   * A budget of its own beside the quota, over the quota's sliding window, held for the whole
   * deployment (e.g. the share of the quota that warming chains may spend): `name` tells it
   * from the others.
   */
  budget(name: string, perWindow: number): QuotaGuard;
  /** Tells the other replicas when this breaker opens, and opens it when theirs do. */
  shareBreaker(breaker: () => UpstreamBreaker): { opened(ms: number): void };
  /** Why the state is not shared right now, for /readyz; undefined while it is (or alone). */
  down(): string | undefined;
  /** Resolves once the shared state is reached, or known unreachable for now (bounded). */
  settled(): Promise<void>;
  /** Adds this state's own figures to the metrics. */
  registerMetrics(registers: Registry[]): void;
  close(): Promise<void>;
}

export interface LocalStateSettings {
  /** Calls per window, and the window in seconds (config.ts). */
  quotaBudget: number;
  quotaWindowSeconds: number;
  /** The share of the window's budget jobs leave to readers. */
  jobReaderReserve: number;
  clientRateLimit: { burst: number; perSecond: number };
  /** Where the budgets' calls are written, to outlive the process; null: memory only. */
  journal?: QuotaJournal | null;
  /** Where the pages fetched are kept, to outlive the process; null: memory only. */
  pages?: DiskPages | null;
  /** This process's jobs (jobs/build-jobs.ts openLocalJobStore). */
  jobStore: JobStore;
  /** STATE_DIR's database the journal, pages and jobs are kept in: closed after them. */
  stateFile?: DatabaseSync | null;
}

/**
 * A process alone: everything in its own memory, answered at once; with a journal, the budgets'
 * calls are also written to disk as they are let through, and read back at start, and with a
 * page store the pages fetched are kept there too (pages/disk-pages.ts).
 */
export function createLocalState(settings: LocalStateSettings): DeploymentState {
  const { journal, quotaWindowSeconds: windowSeconds } = settings;
  const guard = (name: string, budget: number, readerReserve?: number) =>
    createQuotaGuard({
      budget,
      windowSeconds,
      readerReserve,
      journal: journal?.budget(name, windowSeconds),
    });
  return {
    cards: NO_CARD_STORE,
    quota: guard('quota', settings.quotaBudget, settings.jobReaderReserve),
    clientRateLimit: createClientRateLimit(settings.clientRateLimit),
    secondLevel: settings.pages ?? NO_SECOND_LEVEL,
    walkLeases: LOCAL_WALK_LEASES,
    jobStore: settings.jobStore,
    budget: (name, perWindow) => guard(name, perWindow),
    shareBreaker: () => ({ opened() {} }),
    down: () => undefined,
    settled: () => Promise.resolve(),
    registerMetrics() {},
    close: async () => {
      await settings.jobStore.close();
      settings.pages?.close();
      settings.stateFile?.close();
    },
  };
}
