import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { ClientRateLimit, RateDecision } from '../quota/client-rate-limit.ts';
import type { RedisConnection } from './redis-connection.ts';

// The per-client allowance shared by every replica, so that spreading requests over replicas
// gains a client nothing: one count per client address in Redis, through rate-limiter-flexible
// (maintained, atomic with its own short script, and made for exactly this). Its Redis limiter
// counts points in a fixed window rather than refilling a bucket, so the allowance is set to
// the same long-run rate and burst as the in-memory token bucket (client-rate-limit.ts):
// `burst` requests per `burst / perSecond` seconds (60 per 30 s by default). A window's edge can
// let two bursts through close together, which the quota guard still bounds.
//
// While Redis is unreachable the library's insurance limiter, in this replica's memory, takes
// over with this replica's share of the allowance (burst / replicas per window): a client
// spread over every replica then gets about what it got through Redis. The insurance is also
// used directly while the heartbeat says Redis is down, so that no request waits for a
// command deadline just to learn it.

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
