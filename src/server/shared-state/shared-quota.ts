import {
  createQuotaGuard,
  NO_RESERVATION,
  reservationOf,
  type LocalQuotaGuard,
  type QuotaDecision,
  type QuotaGuard,
  type ReserveDecision,
} from '../quota/quota-guard.ts';
import { luaScript, type RedisConnection } from './redis-connection.ts';

// The account's budget shared by every replica: one sliding hour for the whole deployment.
// Each permit is decided by one script on the Redis server, which runs alone, so no
// interleaving of replicas can let a call through that the budget cannot afford; the window is
// a sorted set of the calls' times, read from the server's own clock (TIME), so replicas' clocks
// do not matter. The set holds at most the budget's worth of members (10,000 by default).
// An upstream 429 is written there too, and every replica's next permit sees the pause.
//
// When Redis cannot be asked (redis-connection.ts says it is down, or a command fails), the
// replica falls back to a guard of its own with a conservative share of the budget: the budget
// divided by the number of replicas, less its share of what the deployment had already spent
// in the hour when it last heard (each replica charges itself that much as the link drops). So
// however the replicas divide the traffic meanwhile, together they stay within the budget. What
// a replica last heard may be a moment old (others kept spending after its last answer), so
// each also charges itself in full for the calls it made in that last moment (`recentMs`,
// longer than the gap between two readings): together those cover whatever the others' views
// missed. The calls made without Redis are written back when it returns, so the shared
// window counts them. A Redis that comes back empty (restarted without persistence, or a
// replica promoted without the latest writes) is recognised by a key that names the window's
// life (`epoch`): then each replica writes back every call it made in the last hour, so the
// new window starts from what was really spent.

const WINDOW_MS = 3600_000;

/**
 * The start of a permit's script: the server's time in µs (`now`), an answer {2, seconds} while
 * an upstream 429's pause lasts (KEYS[2]), and the window (KEYS[1]) cleared of calls an hour old.
 */
const NOW_UNLESS_PAUSED = `local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local paused = tonumber(redis.call('GET', KEYS[2]) or '0')
if now < paused then return {2, math.ceil((paused - now) / 1000000)} end
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ${WINDOW_MS * 1000})`;

/**
 * KEYS: the window (sorted set), the pause (µs until which no call goes), the member counter.
 * ARGV: the budget. Returns {0, used} (granted), {1, seconds} (budget spent), {2, seconds}
 * (paused after an upstream 429).
 */
const ACQUIRE = `
${NOW_UNLESS_PAUSED}
local used = redis.call('ZCARD', KEYS[1])
local budget = tonumber(ARGV[1])
if used >= budget then
  if budget <= 0 then return {1, ${WINDOW_MS / 1000}} end
  local oldest = redis.call('ZRANGE', KEYS[1], used - budget, used - budget, 'WITHSCORES')
  return {1, math.max(1, math.ceil((tonumber(oldest[2]) + ${WINDOW_MS * 1000} - now) / 1000000))}
end
redis.call('ZADD', KEYS[1], now, redis.call('INCR', KEYS[3]))
redis.call('PEXPIRE', KEYS[1], ${WINDOW_MS + 60_000})
return {0, used + 1}
`;

/** KEYS: window, pause. Returns {used, paused seconds}. */
const USAGE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ${WINDOW_MS * 1000})
local paused = tonumber(redis.call('GET', KEYS[2]) or '0')
return {redis.call('ZCARD', KEYS[1]), math.max(0, math.ceil((paused - now) / 1000000))}
`;

/**
 * A walk's reservation, all or nothing. KEYS: the window, the pause, the member counter. ARGV:
 * the budget, the calls. Returns {0, first member} (reserved: members first..first+calls-1),
 * {1, seconds} (they do not fit), {2, seconds} (paused after an upstream 429).
 */
const RESERVE = `
${NOW_UNLESS_PAUSED}
local budget = tonumber(ARGV[1])
local calls = tonumber(ARGV[2])
local excess = redis.call('ZCARD', KEYS[1]) - budget + calls
if excess > 0 then
  if calls > budget then return {1, ${WINDOW_MS / 1000}} end
  local leaving = redis.call('ZRANGE', KEYS[1], excess - 1, excess - 1, 'WITHSCORES')
  return {1, math.max(1, math.ceil((tonumber(leaving[2]) + ${WINDOW_MS * 1000} - now) / 1000000))}
end
local first = redis.call('INCRBY', KEYS[3], calls) - calls + 1
for i = 0, calls - 1 do redis.call('ZADD', KEYS[1], now, first + i) end
redis.call('PEXPIRE', KEYS[1], ${WINDOW_MS + 60_000})
return {0, first}
`;

/** KEYS: window. ARGV: the first and last member to give back. */
const REFUND = `
local removed = 0
for i = tonumber(ARGV[1]), tonumber(ARGV[2]) do removed = removed + redis.call('ZREM', KEYS[1], i) end
return removed
`;

/** KEYS: window. ARGV: budget, calls. Seconds until `calls` more fit in the window (0: now). */
const ROOM = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ${WINDOW_MS * 1000})
local budget = tonumber(ARGV[1])
local calls = tonumber(ARGV[2])
local excess = redis.call('ZCARD', KEYS[1]) - budget + calls
if excess <= 0 then return 0 end
if calls > budget then return ${WINDOW_MS / 1000} end
local leaving = redis.call('ZRANGE', KEYS[1], excess - 1, excess - 1, 'WITHSCORES')
return math.max(1, math.ceil((tonumber(leaving[2]) + ${WINDOW_MS * 1000} - now) / 1000000))
`;

/** KEYS: pause. ARGV: seconds. Moves the pause later, never earlier. */
const PAUSE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
local untilUs = now + tonumber(ARGV[1]) * 1000000
local paused = tonumber(redis.call('GET', KEYS[1]) or '0')
if untilUs > paused then
  redis.call('SET', KEYS[1], string.format('%.0f', untilUs), 'PX', math.ceil(tonumber(ARGV[1]) * 1000) + 1000)
end
return 1
`;

/** KEYS: window, member counter. ARGV: ages in ms of calls made while Redis was unreachable. */
const REPLAY = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000000 + tonumber(t[2])
for i = 1, #ARGV do
  redis.call('ZADD', KEYS[1], now - tonumber(ARGV[i]) * 1000, redis.call('INCR', KEYS[2]))
end
redis.call('PEXPIRE', KEYS[1], ${WINDOW_MS + 60_000})
return #ARGV
`;

/** KEYS: epoch. ARGV: a new epoch's name. The window's epoch, started if there is none. */
const EPOCH = `
local epoch = redis.call('GET', KEYS[1])
if epoch then return epoch end
redis.call('SET', KEYS[1], ARGV[1])
return ARGV[1]
`;

export interface SharedQuotaOptions {
  connection: RedisConnection;
  budgetPerHour: number;
  /** Replicas in the deployment: each one's share while Redis is unreachable. */
  replicas: number;
  keyPrefix: string;
  /** How often the shared usage is read for stats and for the fallback's share. */
  refreshMs?: number;
  /** The command deadline: with refreshMs, how old another replica's view may be. */
  commandTimeoutMs?: number;
  now?: () => number;
}

export interface SharedQuotaGuard extends QuotaGuard {
  tryAcquire(): Promise<QuotaDecision>;
  reserve(calls: number): Promise<ReserveDecision>;
  secondsUntilRoomFor(calls: number): Promise<number>;
  /** Permits decided without Redis since start. */
  fallbackStats(): { decided: number; granted: number };
  close(): void;
}

export function createSharedQuota(options: SharedQuotaOptions): SharedQuotaGuard {
  const {
    connection,
    budgetPerHour,
    replicas,
    keyPrefix,
    refreshMs = 1000,
    commandTimeoutMs = 250,
    now = Date.now,
  } = options;
  const recentMs = 2 * (refreshMs + commandTimeoutMs);
  const { client } = connection;
  const keys = {
    window: `${keyPrefix}quota:window`,
    pause: `${keyPrefix}quota:paused-until`,
    seq: `${keyPrefix}quota:seq`,
    epoch: `${keyPrefix}quota:epoch`,
  };
  const startEpoch = luaScript(client, 'explorerQuotaEpoch', 1, EPOCH);
  const acquire = luaScript(client, 'explorerQuotaAcquire', 3, ACQUIRE);
  const usage = luaScript(client, 'explorerQuotaUsage', 2, USAGE);
  const room = luaScript(client, 'explorerQuotaRoom', 1, ROOM);
  const pause = luaScript(client, 'explorerQuotaPause', 1, PAUSE);
  const replay = luaScript(client, 'explorerQuotaReplay', 2, REPLAY);
  const reserveCalls = luaScript(client, 'explorerQuotaReserve', 3, RESERVE);
  const refund = luaScript(client, 'explorerQuotaRefund', 1, REFUND);

  const share = Math.floor(budgetPerHour / replicas);
  const local: LocalQuotaGuard = createQuotaGuard({ budgetPerHour: share, now });
  /** The deployment's use of the hour when Redis last told us, and any pause then. */
  let seen = { used: 0, pausedUntil: 0 };
  /** When calls were granted without Redis, to write back when it returns. */
  let unrecorded: number[] = [];
  const fallback = { decided: 0, granted: 0 };
  /** When this replica's recent shared permits were granted (the last `recentMs`). */
  const recent: number[] = [];
  const forgetOld = (at: number) => {
    let old = 0;
    while (old < recent.length && (recent[old] as number) <= at - recentMs) old++;
    if (old > 0) recent.splice(0, old);
  };

  /** Whether this replica has charged itself its part since it last lost touch with Redis. */
  let charged = false;
  const chargeOnce = () => {
    if (charged) return;
    charged = true;
    // Our part of what the deployment had spent this hour, so the shares add up to the budget,
    // and our own latest calls, which other replicas' last views may have missed.
    forgetOld(now());
    local.charge(Math.ceil(seen.used / replicas) + recent.length);
  };
  /** Every call this replica made in the last hour, shared or not (oldest first). */
  let mine: number[] = [];
  const remember = (at: number) => {
    mine.push(at);
    // Dropped in batches: the array is copied once per thousand expired calls at most.
    if (mine.length > 1000 && (mine[999] as number) <= at - WINDOW_MS)
      mine = mine.filter((t) => t > at - WINDOW_MS);
  };
  /** The epoch of the window this replica has been counting in. */
  let epoch: string | undefined;

  const writeBack = async () => {
    const pending = unrecorded;
    unrecorded = [];
    const before = epoch;
    try {
      const current = String(
        await startEpoch([keys.epoch], [`${now()}-${Math.random().toString(36).slice(2)}`]),
      );
      const lost = before !== undefined && current !== before;
      epoch = current;
      // The window was lost: all of this hour's calls; otherwise those made without Redis.
      const at = now();
      const ages = (lost ? mine : pending).filter((t) => at - t < WINDOW_MS).map((t) => at - t);
      for (let i = 0; i < ages.length; i += 1000)
        await replay([keys.window, keys.seq], ages.slice(i, i + 1000));
    } catch (error) {
      // Tried again at the next reconnection (a part written twice only counts more).
      epoch = before;
      unrecorded = pending.concat(unrecorded);
      connection.reportFailure(error);
    }
  };
  connection.onChange((state) => {
    if (state === 'up') {
      charged = false;
      void writeBack();
    } else chargeOnce();
  });

  const refresh = async () => {
    if (!connection.up()) return;
    try {
      const [used, pausedSeconds] = (await usage([keys.window, keys.pause], [])) as [
        number,
        number,
      ];
      seen = { used, pausedUntil: now() + pausedSeconds * 1000 };
    } catch (error) {
      connection.reportFailure(error);
    }
  };
  const timer = setInterval(() => void refresh(), refreshMs);
  timer.unref();

  // Also when one command fails while the link is up (a reply later than the deadline): the
  // script may well have run, and the calls of the others go on being counted there.
  const decideLocally = (): QuotaDecision => {
    chargeOnce();
    fallback.decided++;
    const decision = local.tryAcquire();
    if (decision.ok) {
      fallback.granted++;
      const at = now();
      unrecorded.push(at);
      remember(at);
    }
    return decision;
  };

  return {
    async tryAcquire() {
      if (!connection.up()) return decideLocally();
      let answer: [number, number];
      try {
        answer = (await acquire([keys.window, keys.pause, keys.seq], [budgetPerHour])) as [
          number,
          number,
        ];
      } catch (error) {
        connection.reportFailure(error);
        return decideLocally();
      }
      const [verdict, figure] = answer;
      if (verdict === 0) {
        seen.used = figure;
        // Once this replica has fallen back, its own guard counts what Redis still grants it
        // (late replies): its fallback share must not be spent a second time.
        if (charged) local.charge(1);
        const at = now();
        forgetOld(at);
        recent.push(at);
        remember(at);
        return { ok: true };
      }
      return {
        ok: false,
        reason: verdict === 1 ? 'quota_exhausted' : 'upstream_rate_limited',
        retryAfterSeconds: figure,
      };
    },
    async reserve(calls): Promise<ReserveDecision> {
      if (calls <= 0) return { ok: true, reservation: NO_RESERVATION };
      // Without Redis a reservation could not hold for the other replicas: no walk starts.
      if (!connection.up()) return { ok: false, reason: 'unavailable', retryAfterSeconds: 5 };
      let answer: [number, number];
      try {
        answer = (await reserveCalls(
          [keys.window, keys.pause, keys.seq],
          [budgetPerHour, calls],
        )) as [number, number];
      } catch (error) {
        connection.reportFailure(error);
        return { ok: false, reason: 'unavailable', retryAfterSeconds: 5 };
      }
      const [verdict, figure] = answer;
      if (verdict !== 0) {
        return {
          ok: false,
          reason: verdict === 1 ? 'quota_exhausted' : 'upstream_rate_limited',
          retryAfterSeconds: figure,
        };
      }
      // Counted as this replica's calls, as the permits they stand for would be.
      seen.used += calls;
      if (charged) local.charge(calls);
      const at = now();
      forgetOld(at);
      for (let i = 0; i < calls; i++) {
        recent.push(at);
        remember(at);
      }
      const first = figure;
      return {
        ok: true,
        reservation: reservationOf(calls, (unspent) => {
          // Given back if Redis can be told; if not, they stay counted, which never overspends.
          if (connection.up())
            refund([keys.window], [first + calls - unspent, first + calls - 1]).catch(
              (error: unknown) => connection.reportFailure(error),
            );
        }),
      };
    },
    pauseFor(seconds) {
      // Here at once, whatever Redis says; then for every replica.
      local.pauseFor(seconds);
      seen.pausedUntil = Math.max(seen.pausedUntil, now() + seconds * 1000);
      if (!connection.up()) return;
      pause([keys.pause], [Math.max(0, seconds)]).catch((error: unknown) =>
        connection.reportFailure(error),
      );
    },
    stats() {
      if (!connection.up()) {
        const mine = local.stats();
        return { ...mine, budget: budgetPerHour, usedLastHour: seen.used + unrecorded.length };
      }
      return {
        budget: budgetPerHour,
        usedLastHour: seen.used,
        pausedForSeconds: Math.max(0, Math.ceil((seen.pausedUntil - now()) / 1000)),
      };
    },
    async secondsUntilRoomFor(calls) {
      if (!connection.up()) return local.secondsUntilRoomFor(calls);
      try {
        return (await room([keys.window], [budgetPerHour, calls])) as number;
      } catch (error) {
        connection.reportFailure(error);
        return local.secondsUntilRoomFor(calls);
      }
    },
    fallbackStats: () => ({ ...fallback }),
    close() {
      clearInterval(timer);
    },
  };
}
