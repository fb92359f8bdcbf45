import { Counter, Gauge, type Registry } from 'prom-client';
import type { RedisState } from './redis-connection.ts';

// The figures of state shared through Redis, registered with the explorer's metrics by the
// Redis adapter itself (the metrics need not know whether state is shared): the link, the
// second level's hits, answers merged across replicas, and what went on without Redis.

/** What the shared state reports: the link, the second level's hits, what went on without it. */
export interface SharedStateFigures {
  state: RedisState;
  /** Changes of state since start. */
  transitions: number;
  secondLevelHits: number;
  /** Answers fetched by another replica while this one waited for them. */
  mergedAcrossReplicas: number;
  /** Quota permits decided from the lease without Redis (and granted) since start; the lease's calls left. */
  quotaFallback: { decided: number; granted: number; leaseLeft: number };
}

const REDIS_STATES = ['connecting', 'up', 'down'] as const;

export function registerRedisMetrics(registers: Registry[], shared: () => SharedStateFigures) {
  new Gauge({
    name: 'explorer_redis_state',
    help: 'The link to Redis, where replicas share state: 1 for its current state, 0 for the others.',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const current = shared().state;
      for (const state of REDIS_STATES) this.set({ state }, state === current ? 1 : 0);
    },
  });
  const catchUp = (name: string, help: string, read: (f: SharedStateFigures) => number) => {
    let seen = 0;
    new Counter({
      name,
      help,
      registers,
      collect() {
        const value = read(shared());
        if (value > seen) this.inc(value - seen);
        seen = value;
      },
    });
  };
  catchUp(
    'explorer_redis_transitions_total',
    'Changes of the link to Redis (up, down) since start.',
    (f) => f.transitions,
  );
  catchUp(
    'explorer_cache_second_level_hits_total',
    'Pages served from the shared second level (Redis) after a miss in this replica.',
    (f) => f.secondLevelHits,
  );
  catchUp(
    'explorer_merged_across_replicas_total',
    'Answers another replica fetched while this one waited for them.',
    (f) => f.mergedAcrossReplicas,
  );
  catchUp(
    'explorer_quota_fallback_decisions_total',
    'Quota permits decided by this replica alone (from its lease) while Redis was unreachable.',
    (f) => f.quotaFallback.decided,
  );
  new Gauge({
    name: 'explorer_quota_lease_calls',
    help: 'Calls this replica holds in the shared hour, to spend should Redis become unreachable.',
    registers,
    collect() {
      this.set(shared().quotaFallback.leaseLeft);
    },
  });
}
