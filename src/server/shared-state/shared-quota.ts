import {
  NO_RESERVATION,
  reservationOf,
  type QuotaDecision,
  type QuotaGuard,
  type ReserveDecision,
} from '../quota/quota-guard.ts';
import {
  DEFAULT_JOB_READER_RESERVE,
  HOUR_SECONDS,
  jobCapOf,
  windowLayout,
} from '../quota/quota-window.ts';
import { luaScript } from './lua-script.ts';
import type { RedisConnection } from './redis-connection.ts';

// The account's budget shared by every replica: one sliding window (quota/quota-window.ts) for
// the whole deployment. Each permit is one script on the Redis server, which runs alone, so no
// interleaving of replicas lets through a call the budget cannot afford; times come from Redis's
// own clock. For outages each replica holds a lease, calls counted ahead of time in the window,
// which it alone may spend while cut off, so the deployment never spends more than the budget.
// A Redis back empty is recognised by its `epoch` key and refilled with the calls really made.
// See docs/decisions/0003-shared-quota-leases.md.

/** How long a replica cut off from Redis may spend its lease after the lease was last renewed. */
const LEASE_LIFE_MS = 20 * 60_000;
/** How often a lease is renewed while the link is up. */
const LEASE_RENEW_MS = 60_000;
/** The most calls one replica's lease holds, whatever the budget. */
const LEASE_MAX_CALLS = 1000;
/** What a replica cut off from Redis with no lease left tells its callers to wait. */
const OUTAGE_RETRY_SECONDS = 10;

/**
 * The scripts of a window `windowMs` long. The window key outlives its last write by the life
 * of a lease's future members and a window.
 */
function quotaScripts(windowMs: number) {
  const keepMs = windowMs + LEASE_LIFE_MS + 60_000;
  /** The server's time in µs (`now`). */
  const NOW = `local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000000 + tonumber(t[2])`;
  /** The window (KEYS[1]) cleared of calls a window old. */
  const TRIM = `redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - ${windowMs * 1000})`;

  /**
   * `wait`: seconds until ARGV[2] calls more fit in the window under the budget ARGV[1] (0: now),
   * as its oldest calls leave it; more calls than the budget never fit (a whole window).
   */
  const WAIT = `local budget = tonumber(ARGV[1])
  local calls = tonumber(ARGV[2])
  local excess = redis.call('ZCARD', KEYS[1]) - budget + calls
  local wait = 0
  if excess > 0 and calls > budget then wait = ${windowMs / 1000}
  elseif excess > 0 then
    local leaving = redis.call('ZRANGE', KEYS[1], excess - 1, excess - 1, 'WITHSCORES')
    wait = math.max(1, math.ceil((tonumber(leaving[2]) + ${windowMs * 1000} - now) / 1000000))
  end`;

  /**
   * KEYS: window, pause. Returns {members, paused seconds, held}: held are the members scored in
   * the future, the replicas' leases (and calls spent from them not yet moved to their times).
   */
  const USAGE = `
  ${NOW}
  ${TRIM}
  local paused = tonumber(redis.call('GET', KEYS[2]) or '0')
  return {redis.call('ZCARD', KEYS[1]), math.max(0, math.ceil((paused - now) / 1000000)),
    redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf')}
  `;

  /**
   * A replica's lease, settled, renewed and topped up in one step. KEYS: the window. ARGV: the
   * budget, the lease's life in µs, s spent members, h held members, then s pairs (member, ms
   * since it was spent), the h held members, and new members to add. Spent members move (or are
   * written back) to their true times; held ones move to now + life only if all are still there,
   * else all are dropped, so a lease is counted whole or not at all; new ones are added at
   * now + life while the budget has room. Returns {1 if the held were kept else 0, added}.
   */
  const RENEW_LEASE = `
  ${NOW}
  ${TRIM}
  local budget = tonumber(ARGV[1])
  local expires = now + tonumber(ARGV[2])
  local spent = tonumber(ARGV[3])
  local held = tonumber(ARGV[4])
  local i = 5
  for _ = 1, spent do
    redis.call('ZADD', KEYS[1], now - tonumber(ARGV[i + 1]) * 1000, ARGV[i])
    i = i + 2
  end
  local firstHeld = i
  local kept = 1
  for j = firstHeld, firstHeld + held - 1 do
    if not redis.call('ZSCORE', KEYS[1], ARGV[j]) then kept = 0 end
  end
  for j = firstHeld, firstHeld + held - 1 do
    if kept == 1 then redis.call('ZADD', KEYS[1], 'XX', expires, ARGV[j])
    else redis.call('ZREM', KEYS[1], ARGV[j]) end
  end
  local room = budget - redis.call('ZCARD', KEYS[1])
  local added = 0
  for j = firstHeld + held, #ARGV do
    if added >= room then break end
    redis.call('ZADD', KEYS[1], expires, ARGV[j])
    added = added + 1
  end
  redis.call('PEXPIRE', KEYS[1], ${keepMs})
  return {kept, added}
  `;

  /**
   * Counts calls, all or nothing: a permit is one, a walk's reservation many. KEYS: the window,
   * the pause, the member counter. ARGV: the budget, the calls. Returns {0, first member, members}
   * (counted: members first..first+calls-1), {1, seconds} (they do not fit), {2, seconds}
   * (paused after an upstream 429).
   */
  const RESERVE = `
  ${NOW}
  local paused = tonumber(redis.call('GET', KEYS[2]) or '0')
  if now < paused then return {2, math.ceil((paused - now) / 1000000)} end
  ${TRIM}
  ${WAIT}
  if wait > 0 then return {1, wait} end
  local first = redis.call('INCRBY', KEYS[3], calls) - calls + 1
  for i = 0, calls - 1 do redis.call('ZADD', KEYS[1], now, first + i) end
  redis.call('PEXPIRE', KEYS[1], ${keepMs})
  return {0, first, redis.call('ZCARD', KEYS[1])}
  `;

  /** KEYS: window. ARGV: the first and last member to give back. */
  const REFUND = `
  local removed = 0
  for i = tonumber(ARGV[1]), tonumber(ARGV[2]) do removed = removed + redis.call('ZREM', KEYS[1], i) end
  return removed
  `;

  /** KEYS: window. ARGV: budget, calls. Seconds until `calls` more fit in the window (0: now). */
  const ROOM = `
  ${NOW}
  ${TRIM}
  ${WAIT}
  return wait
  `;

  /** KEYS: pause. ARGV: seconds. Moves the pause later, never earlier. */
  const PAUSE = `
  ${NOW}
  local untilUs = now + tonumber(ARGV[1]) * 1000000
  local paused = tonumber(redis.call('GET', KEYS[1]) or '0')
  if untilUs > paused then
    redis.call('SET', KEYS[1], string.format('%.0f', untilUs), 'PX', math.ceil(tonumber(ARGV[1]) * 1000) + 1000)
  end
  return 1
  `;

  /** KEYS: window, member counter. ARGV: ages in ms of calls made while Redis was unreachable. */
  const REPLAY = `
  ${NOW}
  for i = 1, #ARGV do
    redis.call('ZADD', KEYS[1], now - tonumber(ARGV[i]) * 1000, redis.call('INCR', KEYS[2]))
  end
  redis.call('PEXPIRE', KEYS[1], ${keepMs})
  return #ARGV
  `;
  return { USAGE, RENEW_LEASE, RESERVE, REFUND, ROOM, PAUSE, REPLAY };
}

/** KEYS: epoch. ARGV: a new epoch's name. The window's epoch, started if there is none. */
const EPOCH = `
local epoch = redis.call('GET', KEYS[1])
if epoch then return epoch end
redis.call('SET', KEYS[1], ARGV[1])
return ARGV[1]
`;

export interface SharedQuotaOptions {
  connection: RedisConnection;
  /** Calls allowed per window (the name is from when the window was always an hour). */
  budgetPerHour: number;
  /** The window's length in seconds (default an hour). */
  windowSeconds?: number;
  /** The share of the budget jobs leave to readers (JOB_READER_RESERVE). */
  readerReserve?: number;
  /** Replicas in the deployment: they divide the outage share between them. */
  replicas: number;
  /** The part of the window the replicas' leases hold back together for a Redis outage (0: none). */
  outageShare: number;
  keyPrefix: string;
  /** How often the shared usage is read for stats. */
  refreshMs?: number;
  /** How often the lease is renewed while the link is up. */
  leaseRenewMs?: number;
  now?: () => number;
}

export interface SharedQuotaGuard extends QuotaGuard {
  /** Permits decided from the lease (without Redis) since start, and the lease's calls left. */
  fallbackStats(): { decided: number; granted: number; leaseLeft: number };
  /** Renews the lease now (as the timer does): whether Redis could be asked. */
  renewLease(): Promise<boolean>;
  close(): void;
}

/** One replica's lease: the members it holds in the window, and those spent while cut off. */
interface Lease {
  held: string[];
  /** Until when (this replica's clock) the held members are counted for calls made now. */
  validUntil: number;
  spent: Array<{ member: string; at: number }>;
}

export function createSharedQuota(options: SharedQuotaOptions): SharedQuotaGuard {
  const {
    connection,
    budgetPerHour,
    windowSeconds = HOUR_SECONDS,
    readerReserve = DEFAULT_JOB_READER_RESERVE,
    replicas,
    outageShare,
    keyPrefix,
    refreshMs = 1000,
    leaseRenewMs = LEASE_RENEW_MS,
    now = Date.now,
  } = options;
  // A RangeError for a window the in-memory guard would refuse.
  windowLayout(windowSeconds);
  const windowMs = windowSeconds * 1000;
  const jobCap = jobCapOf(budgetPerHour, readerReserve);
  const scripts = quotaScripts(windowMs);
  // Registered by name on the connection: the name carries the window, whose length is in the
  // script's text.
  const named = (name: string) => `${name}${windowSeconds === HOUR_SECONDS ? '' : windowSeconds}`;
  const { client } = connection;
  const keys = {
    window: `${keyPrefix}quota:window`,
    pause: `${keyPrefix}quota:paused-until`,
    seq: `${keyPrefix}quota:seq`,
    epoch: `${keyPrefix}quota:epoch`,
  };
  const startEpoch = luaScript(client, 'explorerQuotaEpoch', 1, EPOCH);
  const usage = luaScript(client, named('explorerQuotaUsage'), 2, scripts.USAGE);
  const room = luaScript(client, named('explorerQuotaRoom'), 1, scripts.ROOM);
  const pause = luaScript(client, named('explorerQuotaPause'), 1, scripts.PAUSE);
  const replay = luaScript(client, named('explorerQuotaReplay'), 2, scripts.REPLAY);
  const reserveCalls = luaScript(client, named('explorerQuotaReserve'), 3, scripts.RESERVE);
  const refund = luaScript(client, named('explorerQuotaRefund'), 1, scripts.REFUND);
  const renew = luaScript(client, named('explorerQuotaLease'), 1, scripts.RENEW_LEASE);

  const leaseSize = Math.min(
    LEASE_MAX_CALLS,
    Math.floor((budgetPerHour * outageShare) / Math.max(1, replicas)),
  );
  // Named apart from the calls' numbered members, so that no window (even one started again
  // after Redis lost its data, when the numbers start again) can hold another's member by chance.
  const leaseTag = `lease:${Math.random().toString(36).slice(2, 10)}:`;
  let leaseMembers = 0;
  const lease: Lease = { held: [], validUntil: 0, spent: [] };

  /** The deployment's use of the window when Redis last told us, without the leases held, and any pause. */
  let seen = { used: 0, held: 0, pausedUntil: 0 };
  let pausedUntil = 0;
  const fallback = { decided: 0, granted: 0 };
  /** Every call this replica made in the last window (oldest first), to rebuild a lost one. */
  let mine: number[] = [];
  const remember = (at: number, calls = 1) => {
    for (let i = 0; i < calls; i++) mine.push(at);
    // Dropped in batches: the array is copied once per thousand expired calls at most.
    if (mine.length > 1000 && (mine[999] as number) <= at - windowMs)
      mine = mine.filter((t) => t > at - windowMs);
  };
  /** The epoch of the window this replica has been counting in. */
  let epoch: string | undefined;

  /** Writes back this window's calls if the window was lost since we last counted in it. */
  const checkEpoch = async () => {
    const before = epoch;
    const current = String(
      await startEpoch([keys.epoch], [`${now()}-${Math.random().toString(36).slice(2)}`]),
    );
    if (before === undefined || current === before) {
      epoch = current;
      return;
    }
    const at = now();
    const ages = mine.filter((t) => at - t < windowMs).map((t) => at - t);
    for (let i = 0; i < ages.length; i += 1000)
      await replay([keys.window, keys.seq], ages.slice(i, i + 1000));
    // Written back with the rest (so not to be moved again), and the old lease is gone.
    epoch = current;
    lease.spent = [];
    lease.held = [];
  };

  /** Settles what was spent from the lease, renews what is held, tops it up. */
  const settleAndRenew = async () => {
    const sent = now();
    const spent = lease.spent;
    const held = lease.held;
    const fresh = Array.from(
      { length: leaseSize - held.length },
      () => `${leaseTag}${++leaseMembers}`,
    );
    const args: Array<string | number> = [
      budgetPerHour,
      LEASE_LIFE_MS * 1000,
      spent.length,
      held.length,
    ];
    for (const { member, at } of spent) args.push(member, Math.max(0, sent - at));
    args.push(...held, ...fresh);
    const [kept, added] = (await renew([keys.window], args)) as [number, number];
    // The members sent as spent are in their places now. Those spent while the script ran were
    // taken from `lease.held` into `lease.spent`, to be settled at the next renewal.
    lease.spent = lease.spent.slice(spent.length);
    lease.held = [...(kept === 1 ? lease.held : []), ...fresh.slice(0, added)];
    lease.validUntil = sent + LEASE_LIFE_MS;
  };

  let syncing: Promise<boolean> | null = null;
  const sync = (): Promise<boolean> => {
    if (!connection.up()) return Promise.resolve(false);
    syncing ??= (async () => {
      try {
        await checkEpoch();
        await settleAndRenew();
        return true;
      } catch (error) {
        // Tried again at the next renewal; what the lease holds meanwhile is still counted.
        connection.reportFailure(error);
        return false;
      }
    })().finally(() => {
      syncing = null;
    });
    return syncing;
  };
  connection.onChange((state) => {
    if (state === 'up') void sync();
  });
  const leaseTimer = setInterval(() => void sync(), leaseRenewMs);
  leaseTimer.unref();
  if (connection.up()) void sync();

  const refresh = async () => {
    if (!connection.up()) return;
    try {
      const [members, pausedSeconds, held] = (await usage([keys.window, keys.pause], [])) as [
        number,
        number,
        number,
      ];
      seen = { used: members - held, held, pausedUntil: now() + pausedSeconds * 1000 };
    } catch (error) {
      connection.reportFailure(error);
    }
  };
  const timer = setInterval(() => void refresh(), refreshMs);
  timer.unref();

  // Also when one command fails while the link is up (a reply later than the deadline): the
  // script may well have run, and then the call counts twice, which never overspends.
  const decideFromLease = (): QuotaDecision => {
    fallback.decided++;
    const at = now();
    const paused = Math.max(pausedUntil, seen.pausedUntil);
    if (at < paused)
      return {
        ok: false,
        reason: 'upstream_rate_limited',
        retryAfterSeconds: Math.ceil((paused - at) / 1000),
      };
    const member = at < lease.validUntil ? lease.held.shift() : undefined;
    if (member === undefined)
      return { ok: false, reason: 'quota_exhausted', retryAfterSeconds: OUTAGE_RETRY_SECONDS };
    fallback.granted++;
    lease.spent.push({ member, at });
    remember(at);
    return { ok: true };
  };

  /**
   * Counts `calls` on the server if the window stays within `cap`, all or nothing: the first
   * member counted, the refusal, or undefined when Redis could not be asked.
   */
  const count = async (
    calls: number,
    cap: number,
  ): Promise<number | Extract<QuotaDecision, { ok: false }> | undefined> => {
    if (!connection.up()) return undefined;
    let answer: [number, number, number];
    try {
      answer = (await reserveCalls([keys.window, keys.pause, keys.seq], [cap, calls])) as [
        number,
        number,
        number,
      ];
    } catch (error) {
      connection.reportFailure(error);
      return undefined;
    }
    const [verdict, figure, members] = answer;
    if (verdict !== 0) {
      const reason = verdict === 1 ? 'quota_exhausted' : 'upstream_rate_limited';
      return { ok: false, reason, retryAfterSeconds: figure };
    }
    seen.used = members - seen.held;
    remember(now(), calls);
    return figure;
  };

  const reserveUnder = async (calls: number, cap: number): Promise<ReserveDecision> => {
    if (calls <= 0) return { ok: true, reservation: NO_RESERVATION };
    const first = await count(calls, cap);
    // Without Redis a reservation could not hold for the other replicas: no walk starts.
    if (first === undefined)
      return { ok: false, reason: 'unavailable', retryAfterSeconds: OUTAGE_RETRY_SECONDS };
    if (typeof first !== 'number') return first;
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
  };

  /** Seconds until `calls` more fit under `cap`, asked of the server's window. */
  const waitFor = async (calls: number, cap: number): Promise<number> => {
    if (!connection.up()) return OUTAGE_RETRY_SECONDS;
    try {
      return (await room([keys.window], [cap, calls])) as number;
    } catch (error) {
      connection.reportFailure(error);
      return OUTAGE_RETRY_SECONDS;
    }
  };

  return {
    async tryAcquire() {
      const counted = await count(1, budgetPerHour);
      if (counted === undefined) return decideFromLease();
      return typeof counted === 'number' ? { ok: true } : counted;
    },
    reserve: (calls) => reserveUnder(calls, budgetPerHour),
    reserveForJob: (calls) => reserveUnder(calls, jobCap),
    pauseFor(seconds) {
      // Here at once, whatever Redis says; then for every replica.
      pausedUntil = Math.max(pausedUntil, now() + seconds * 1000);
      if (!connection.up()) return;
      pause([keys.pause], [Math.max(0, seconds)]).catch((error: unknown) =>
        connection.reportFailure(error),
      );
    },
    stats() {
      const paused = Math.max(pausedUntil, seen.pausedUntil);
      const used = seen.used + (connection.up() ? 0 : lease.spent.length);
      return {
        // What ordinary traffic may spend: the leases are held back for an outage.
        budget: budgetPerHour - seen.held,
        windowSeconds,
        usedInWindow: used,
        usedLastHour: used,
        pausedForSeconds: Math.max(0, Math.ceil((paused - now()) / 1000)),
      };
    },
    secondsUntilRoomFor: (calls) => waitFor(calls, budgetPerHour),
    secondsUntilJobRoom: (calls) => waitFor(calls, jobCap),
    async jobRoom() {
      // Without Redis a job is not let spend: the lease is for readers (shared-state.ts).
      if (!connection.up()) return 0;
      try {
        const [members] = (await usage([keys.window, keys.pause], [])) as [number];
        // Every member counts, the leases' too: they are held back for readers in an outage.
        return Math.max(0, jobCap - members);
      } catch (error) {
        connection.reportFailure(error);
        return 0;
      }
    },
    fallbackStats: () => ({ ...fallback, leaseLeft: lease.held.length }),
    renewLease: sync,
    close() {
      clearInterval(timer);
      clearInterval(leaseTimer);
    },
  };
}
