// The account's upstream budget: the real service allows one account 10,000 requests per hour, all
// endpoints and every user together. Every upstream attempt, retries included, asks for a permit
// first; when one more call would exceed the budget of the last hour, the explorer answers 429
// itself instead of calling, rather than exhaust the account for everyone. After an upstream 429
// the guard also holds every call until the upstream's Retry-After has passed.
//
// The window slides in one-second buckets: exact enough for an hourly budget, constant memory
// whatever the budget (a benchmark sets it to 10^8), O(1) per call. With a journal
// (quota-journal.ts), the calls let through are also written down, and a new process starts
// from them.
//
// A whole-list walk reserves what it was quoted before it answers (reserve): the calls are
// counted as spent at once, so no reader or other walk can take them, and what the walk did not
// spend (a page someone else fetched meanwhile, a reader who went away) is given back when it
// ends. So an accepted export is never cut off by the quota half way.

import type { BudgetJournal } from './quota-journal.ts';

const WINDOW_SECONDS = 3600;

export type QuotaDecision =
  | { ok: true }
  | { ok: false; reason: 'quota_exhausted' | 'upstream_rate_limited'; retryAfterSeconds: number };

/** Calls counted against the hour ahead of time, spent one by one, the rest given back. */
export interface Reservation {
  /** Reserved calls not yet spent. */
  readonly remaining: number;
  /** Spends one reserved call; false when none is left. */
  take(): boolean;
  /** Gives back the calls not spent. Idempotent. */
  release(): void;
}

export type ReserveDecision =
  | { ok: true; reservation: Reservation }
  | {
      ok: false;
      /** `unavailable`: the deployment's shared count cannot be asked (Redis down). */
      reason: 'quota_exhausted' | 'upstream_rate_limited' | 'unavailable';
      retryAfterSeconds: number;
    };

/** A reservation of nothing: every call asks the guard as usual. */
export const NO_RESERVATION: Reservation = { remaining: 0, take: () => false, release() {} };

/** `calls` to spend one by one; `giveBack` hears, once, how many were left unspent. */
export function reservationOf(calls: number, giveBack: (unspent: number) => void): Reservation {
  let remaining = calls;
  return {
    get remaining() {
      return remaining;
    },
    take() {
      if (remaining === 0) return false;
      remaining--;
      return true;
    },
    release() {
      if (remaining === 0) return;
      const unspent = remaining;
      remaining = 0;
      giveBack(unspent);
    },
  };
}

export interface QuotaGuard {
  /**
   * Takes one call from the budget, or says why not and for how long. The in-memory guard
   * decides at once; one shared through Redis (shared-state/shared-quota.ts) has to ask, so
   * callers await either.
   */
  tryAcquire(): QuotaDecision | Promise<QuotaDecision>;
  /** The upstream answered 429: no calls until `seconds` from now. */
  pauseFor(seconds: number): void;
  stats(): { budget: number; usedLastHour: number; pausedForSeconds: number };
  /** Seconds until `calls` more calls fit in the window (0: they fit now). */
  secondsUntilRoomFor(calls: number): number | Promise<number>;
  /** Counts `calls` as spent now, to be spent through the reservation, or says why not. */
  reserve(calls: number): ReserveDecision | Promise<ReserveDecision>;
}

/** The in-memory guard, which can also be told of calls counted elsewhere. */
export interface LocalQuotaGuard extends QuotaGuard {
  tryAcquire(): QuotaDecision;
  secondsUntilRoomFor(calls: number): number;
  reserve(calls: number): ReserveDecision;
  /** Counts `calls` as spent now without asking (calls someone else made for this budget). */
  charge(calls: number): void;
}

export function createQuotaGuard(options: {
  budgetPerHour: number;
  now?: () => number;
  /** Where the calls are written as they are let through, and read back from at start. */
  journal?: BudgetJournal;
}): LocalQuotaGuard {
  const { budgetPerHour, now = Date.now, journal } = options;
  const buckets = new Uint32Array(WINDOW_SECONDS);
  let total = 0;
  /** The second (since the epoch) of the most recent bucket written or cleared. */
  let head = Math.floor(now() / 1000);
  let pausedUntil = journal?.restored.pausedUntilMs ?? 0;
  /** Adds `calls` to second `second`'s bucket (negative: takes them off). */
  const place = (second: number, calls: number) => {
    const slot = second % WINDOW_SECONDS;
    buckets[slot] = (buckets[slot] as number) + calls;
    total += calls;
  };
  // The calls a previous run let through this hour still count.
  for (const [second, calls] of journal?.restored.calls ?? [])
    if (second <= head && second > head - WINDOW_SECONDS) place(second, calls);

  /** Clears the buckets that have slid out of the window up to second `current`. */
  const advance = (current: number) => {
    if (current <= head) return;
    const steps = Math.min(current - head, WINDOW_SECONDS);
    for (let i = 1; i <= steps; i++) {
      const slot = (head + i) % WINDOW_SECONDS;
      total -= buckets[slot] as number;
      buckets[slot] = 0;
    }
    head = current;
  };

  /** Seconds until the oldest calls leave the window and `calls` more fit again. */
  const secondsUntilRoom = (current: number, calls = 1): number => {
    let excess = total - budgetPerHour + calls;
    if (excess <= 0) return 0;
    // More than the whole budget never fits.
    if (calls > budgetPerHour) return WINDOW_SECONDS;
    for (let age = WINDOW_SECONDS - 1; age >= 0; age--) {
      excess -= buckets[(current - age + WINDOW_SECONDS * 2) % WINDOW_SECONDS] as number;
      // The bucket `age` seconds old leaves the window in WINDOW_SECONDS - age seconds.
      if (excess <= 0) return WINDOW_SECONDS - age;
    }
    return WINDOW_SECONDS;
  };

  /** Counts `calls` in second `current`'s bucket and in the journal (negative: gives back). */
  const count = (current: number, calls: number) => {
    place(current, calls);
    journal?.record(current, calls);
  };

  /** Whether `calls` more may go now: undefined if so, else the refusal. */
  const refusal = (calls: number) => {
    const ms = now();
    if (ms < pausedUntil) {
      return {
        ok: false as const,
        reason: 'upstream_rate_limited' as const,
        retryAfterSeconds: Math.max(1, Math.ceil((pausedUntil - ms) / 1000)),
      };
    }
    const current = Math.floor(ms / 1000);
    advance(current);
    if (total + calls > budgetPerHour) {
      return {
        ok: false as const,
        reason: 'quota_exhausted' as const,
        retryAfterSeconds: secondsUntilRoom(current, calls),
      };
    }
    return undefined;
  };

  return {
    tryAcquire() {
      const refused = refusal(1);
      if (refused !== undefined) return refused;
      count(Math.floor(now() / 1000), 1);
      return { ok: true };
    },
    reserve(calls) {
      if (calls <= 0) return { ok: true, reservation: NO_RESERVATION };
      const refused = refusal(calls);
      if (refused !== undefined) return refused;
      const second = Math.floor(now() / 1000);
      count(second, calls);
      return {
        ok: true,
        reservation: reservationOf(calls, (unspent) => {
          advance(Math.floor(now() / 1000));
          // Calls reserved over an hour ago have left the window already.
          if (second > head - WINDOW_SECONDS) count(second, -unspent);
        }),
      };
    },
    charge(calls) {
      if (calls <= 0) return;
      const current = Math.floor(now() / 1000);
      advance(current);
      count(current, calls);
    },
    pauseFor(seconds) {
      pausedUntil = Math.max(pausedUntil, now() + Math.max(0, seconds) * 1000);
      journal?.pause(pausedUntil);
    },
    secondsUntilRoomFor(calls) {
      const current = Math.floor(now() / 1000);
      advance(current);
      return secondsUntilRoom(current, calls);
    },
    stats() {
      const ms = now();
      advance(Math.floor(ms / 1000));
      return {
        budget: budgetPerHour,
        usedLastHour: total,
        pausedForSeconds: Math.max(0, Math.ceil((pausedUntil - ms) / 1000)),
      };
    },
  };
}
