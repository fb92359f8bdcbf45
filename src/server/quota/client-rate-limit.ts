// Per-client limit: one client must not drain the account's hourly budget for everyone. A token
// bucket per client address, consulted only for requests that would spend upstream quota (cache
// hits and requests merged into one in flight are free), so a person scrolling fast never meets it:
// with the defaults (60 burst, 2/s) that is 6,000 playlist items at once, then 200 more every
// second.

export type RateDecision =
  | { ok: true }
  /** `share`: the client's share of the hour is spent (client-shares.ts), not its pace. */
  | { ok: false; retryAfterSeconds: number; limit?: 'share' };

export interface ClientRateLimit {
  /**
   * Takes one request from the client's allowance. Answered at once in memory; a limit shared
   * through Redis (shared-state/shared-client-limit.ts) has to ask, so callers await either.
   */
  take(client: string): RateDecision | Promise<RateDecision>;
}

/** The in-memory limit, which answers at once. */
export interface LocalClientRateLimit extends ClientRateLimit {
  take(client: string): RateDecision;
}

/** Past this many tracked clients, buckets that have refilled completely are forgotten. */
const SWEEP_AT = 10_000;

export function createClientRateLimit(options: {
  burst: number;
  perSecond: number;
  now?: () => number;
}): LocalClientRateLimit {
  const { burst, perSecond, now = Date.now } = options;
  const buckets = new Map<string, { tokens: number; at: number }>();

  const refill = (bucket: { tokens: number; at: number }, ms: number) => {
    bucket.tokens = Math.min(burst, bucket.tokens + ((ms - bucket.at) / 1000) * perSecond);
    bucket.at = ms;
  };

  const sweep = (ms: number) => {
    for (const [client, bucket] of buckets) {
      refill(bucket, ms);
      if (bucket.tokens >= burst) buckets.delete(client);
    }
  };

  return {
    take(client) {
      const ms = now();
      let bucket = buckets.get(client);
      if (bucket === undefined) {
        if (buckets.size >= SWEEP_AT) sweep(ms);
        bucket = { tokens: burst, at: ms };
        buckets.set(client, bucket);
      } else {
        refill(bucket, ms);
      }
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { ok: true };
      }
      return {
        ok: false,
        retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond)),
      };
    },
  };
}
