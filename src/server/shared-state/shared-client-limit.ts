import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { ClientRateLimit, RateDecision } from '../quota/client-rate-limit.ts';
import type { RedisConnection } from './redis-connection.ts';

// The per-client allowance shared by every replica, so that spreading requests over replicas
// gains a client nothing: one count per address in Redis, through rate-limiter-flexible. Its
// Redis limiter counts a fixed window rather than refilling a bucket, so it is set to the
// in-memory bucket's long-run rate and burst (client-rate-limit.ts); the quota guard still
// bounds what a window's edge lets through. While Redis is unreachable, or the heartbeat says it
// is down, the library's insurance limiter in this replica's memory takes over with this
// replica's share of the allowance.

export interface SharedClientLimitOptions {
  connection: RedisConnection;
  burst: number;
  perSecond: number;
  replicas: number;
  keyPrefix: string;
}

export function createSharedClientLimit(options: SharedClientLimitOptions): ClientRateLimit {
  const { connection, burst, perSecond, replicas, keyPrefix } = options;
  const duration = Math.max(1, Math.ceil(burst / perSecond));
  const insurance = new RateLimiterMemory({
    points: Math.max(1, Math.ceil(burst / replicas)),
    duration,
    keyPrefix: `${keyPrefix}client`,
  });
  const shared = new RateLimiterRedis({
    storeClient: connection.client,
    points: burst,
    duration,
    keyPrefix: `${keyPrefix}client`,
    insuranceLimiter: insurance,
    rejectIfRedisNotReady: true,
  });

  const decide = async (
    limiter: RateLimiterMemory | RateLimiterRedis,
    client: string,
  ): Promise<RateDecision> => {
    try {
      await limiter.consume(client);
      return { ok: true };
    } catch (refusal) {
      // A refusal carries the wait; anything else is the store failing (the insurance
      // limiter answers those when Redis was tried): never turn a client away for our fault.
      if (refusal instanceof RateLimiterRes) {
        return {
          ok: false,
          retryAfterSeconds: Math.max(1, Math.ceil(refusal.msBeforeNext / 1000)),
        };
      }
      connection.reportFailure(refusal);
      return { ok: true };
    }
  };

  return {
    take: (client) => decide(connection.up() ? shared : insurance, client),
  };
}
