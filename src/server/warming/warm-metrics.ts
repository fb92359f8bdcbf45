import { Counter, Gauge, type Registry } from 'prom-client';
import type { QuotaGuard } from '../quota/quota-guard.ts';
import { WARM_SKIPS, WARM_STOPS, type ChainWarmStats } from './chain-warmer.ts';

// Chain warming's figures on /metrics, registered by the composition root through the metrics'
// `more` (the metrics need not know about warming): what it spends of its share and of the
// quota, what it reads, why it stops, and what people then read of it, the one figure that
// says whether it pays. Counters are kept by the warmer and caught up with when scraped.

export function registerChainWarmMetrics(
  registers: Registry[],
  stats: () => ChainWarmStats,
  share: Pick<QuotaGuard, 'stats'>,
): void {
  new Gauge({
    name: 'explorer_chain_warm_lists',
    help: 'Playlists whose continuation chain is being warmed now.',
    registers,
    collect() {
      this.set(stats().lists);
    },
  });
  new Gauge({
    name: 'explorer_chain_warm_share',
    help: "Warming's share of the window's quota (CHAIN_WARM_SHARE): its budget and what it spent in the window.",
    labelNames: ['of'] as const,
    registers,
    collect() {
      const { budget, usedInWindow } = share.stats();
      this.set({ of: 'budget' }, budget);
      this.set({ of: 'used' }, usedInWindow);
    },
  });

  /** A counter read from the warmer's figures, one series per label value. */
  const catchUp = <L extends string>(
    name: string,
    help: string,
    label: string,
    values: readonly L[],
    read: (s: ChainWarmStats) => Record<L, number>,
  ) => {
    const seen = Object.fromEntries(values.map((v) => [v, 0])) as Record<L, number>;
    new Counter({
      name,
      help,
      labelNames: [label],
      registers,
      collect() {
        const now = read(stats());
        for (const value of values) {
          // Every series shows from the start, at 0, so that rates work from the first scrape.
          this.inc({ [label]: value }, Math.max(0, now[value] - seen[value]));
          seen[value] = now[value];
        }
      },
    });
  };
  const single = (name: string, help: string, read: (s: ChainWarmStats) => number) => {
    let seen = 0;
    new Counter({
      name,
      help,
      registers,
      collect() {
        const value = read(stats());
        if (value > seen) this.inc(value - seen);
        seen = value;
      },
    });
  };

  catchUp(
    'explorer_chain_warm_started_total',
    'Warmings started, and requests of people that started none (busy, unread, recent).',
    'how',
    ['started', ...WARM_SKIPS] as const,
    (s) => ({ started: s.started, ...s.skipped }),
  );
  catchUp(
    'explorer_chain_warm_stopped_total',
    'Warmings ended, by why: end, idle, share, quota, failed, loop, replaced, closed.',
    'reason',
    WARM_STOPS,
    (s) => s.stopped,
  );
  catchUp(
    'explorer_chain_warm_pages_total',
    'Pages the warmer read, by where they came from: fetched (its own upstream call), merged (into a call under way), cached.',
    'source',
    ['fetched', 'merged', 'cached'] as const,
    (s) => s.pages,
  );
  single(
    'explorer_chain_warm_upstream_calls_total',
    'Upstream calls warming made (retries included): what it spent of the quota.',
    (s) => s.lookups,
  );
  single(
    'explorer_chain_warm_yields_total',
    "Times the warmer waited for people's calls to leave the upstream's slots.",
    (s) => s.yields,
  );
  single(
    'explorer_chain_warm_pages_read_total',
    'Pages the warmer fetched that a person then asked for.',
    (s) => s.readByPeople,
  );
}
