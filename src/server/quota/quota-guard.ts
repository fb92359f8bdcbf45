// The account's upstream budget (spec §2.3): every upstream attempt, retries included, asks for
// a permit first, and past the window's budget the explorer answers 429 itself rather than
// exhaust the account for everyone; an upstream 429 holds every call for its Retry-After. The
// window slides in buckets (quota-window.ts), so memory is constant whatever the budget and
// window. A walk reserves its quoted calls up front (`reserve`), so an accepted export is never
// cut off half way; jobs ask through the job methods, which leave JOB_READER_RESERVE of the
// budget to people reading pages.

import type { BudgetJournal } from './quota-journal.ts';
import {
  DEFAULT_JOB_READER_RESERVE,
  HOUR_SECONDS,
  jobCapOf,
  windowLayout,
  type WindowLayout,
} from './quota-window.ts';

export type QuotaDecision =
  | { ok: true }
  | { ok: false; reason: 'quota_exhausted' | 'upstream_rate_limited'; retryAfterSeconds: number };

/** Calls counted against the window ahead of time, spent one by one, the rest given back. */
export interface Reservation {
  /** Reserved calls not yet spent. */
  readonly remaining: number;
  /** Spends one reserved call; false when none is left. */
  take(): boolean;
  /** Gives back the calls not spent. Idempotent. */
  release(): void;
}

/** Two reservations spent and given back as one (a page paid from the window and a share). */
export function together(a: Reservation, b: Reservation): Reservation {
  return {
    get remaining() {
      return Math.min(a.remaining, b.remaining);
    },
    take: () => a.take() && b.take(),
    release() {
      a.release();
      b.release();
    },
  };
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

/** What a guard says of its window. */
export interface QuotaStats {
  /** Calls allowed per window. */
  budget: number;
  /** The window's length (CATALOGUE_QUOTA_WINDOW). */
  windowSeconds: number;
  /** Calls counted in the window now. */
  usedInWindow: number;
  /** The same as usedInWindow: the name from when the window was always an hour. */
  usedLastHour: number;
  pausedForSeconds: number;
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
  stats(): QuotaStats;
  /** Seconds until `calls` more calls fit in the window (0: they fit now). */
  secondsUntilRoomFor(calls: number): number | Promise<number>;
  /** Counts `calls` as spent now, to be spent through the reservation, or says why not. */
  reserve(calls: number): ReserveDecision | Promise<ReserveDecision>;
  /**
   * Calls background work (a job) may still spend in the window without taking the readers'
   * part: max(0, floor(budget × (1 − readerReserve)) − used). A pause is not counted here.
   */
  jobRoom(): number | Promise<number>;
  /**
   * Seconds until `calls` more fit in the jobs' part of the window (0: now), as the sliding
   * window frees them; a pause is not counted (stats().pausedForSeconds). More calls than the
   * jobs' part holds never fit: the answer is then the whole window.
   */
  secondsUntilJobRoom(calls: number): number | Promise<number>;
  /**
   * As `reserve`, but only out of the jobs' part: refused (quota_exhausted) when `calls` more
   * would leave less than the readers' reserve. Checked and counted in one step, so two jobs
   * (or two replicas' jobs) cannot both take the last of the room.
   */
  reserveForJob(calls: number): ReserveDecision | Promise<ReserveDecision>;
}

/** The in-memory guard, which can also be told of calls counted elsewhere. */
export interface LocalQuotaGuard extends QuotaGuard {
  tryAcquire(): QuotaDecision;
  secondsUntilRoomFor(calls: number): number;
  reserve(calls: number): ReserveDecision;
  jobRoom(): number;
  secondsUntilJobRoom(calls: number): number;
  reserveForJob(calls: number): ReserveDecision;
  /** Counts `calls` as spent now without asking (calls someone else made for this budget). */
  charge(calls: number): void;
  /** How the window is counted: its buckets are all the memory the guard holds. */
  readonly layout: WindowLayout;
}

/** The budget per window: `budgetPerHour` is its name from when the window was an hour. */
export type QuotaBudgetOption = { budget: number } | { budgetPerHour: number };

export function createQuotaGuard(
  options: QuotaBudgetOption & {
    /** The window's length in seconds (default an hour). */
    windowSeconds?: number;
    /** The share of the budget jobs leave to readers (JOB_READER_RESERVE). */
    readerReserve?: number;
    now?: () => number;
    /** Where the calls are written as they are let through, and read back from at start. */
    journal?: BudgetJournal;
  },
): LocalQuotaGuard {
  const {
    windowSeconds = HOUR_SECONDS,
    readerReserve = DEFAULT_JOB_READER_RESERVE,
    now = Date.now,
    journal,
  } = options;
  const budget = 'budget' in options ? options.budget : options.budgetPerHour;
  const jobCap = jobCapOf(budget, readerReserve);
  const layout = windowLayout(windowSeconds);
  const { bucketSeconds, buckets: size } = layout;
  const buckets = new Uint32Array(size);
  /** The bucket (bucketSeconds-long span since the epoch) a second falls in. */
  const bucketOf = (second: number) => Math.floor(second / bucketSeconds);
  let total = 0;
  /** The bucket of the most recent second written or cleared. */
  let head = bucketOf(Math.floor(now() / 1000));
  let pausedUntil = journal?.restored.pausedUntilMs ?? 0;
  /** Adds `calls` to bucket `bucket` (negative: takes them off). */
  const place = (bucket: number, calls: number) => {
    const slot = bucket % size;
    buckets[slot] = (buckets[slot] as number) + calls;
    total += calls;
  };
  /** Whether bucket `bucket` is still in the window that ends with bucket `head`. */
  const inWindow = (bucket: number) => bucket <= head && bucket > head - size;
  // The calls a previous run let through in the window still count.
  for (const [second, calls] of journal?.restored.calls ?? []) {
    const bucket = bucketOf(second);
    if (inWindow(bucket)) place(bucket, calls);
  }

  /** Clears the buckets that have slid out of the window up to second `current`. */
  const advance = (current: number) => {
    const bucket = bucketOf(current);
    if (bucket <= head) return;
    const steps = Math.min(bucket - head, size);
    for (let i = 1; i <= steps; i++) {
      const slot = (head + i) % size;
      total -= buckets[slot] as number;
      buckets[slot] = 0;
    }
    head = bucket;
  };
  /** The second now, the window slid up to it. */
  const tick = () => {
    const current = Math.floor(now() / 1000);
    advance(current);
    return current;
  };

  /** Seconds until the oldest calls leave the window and `calls` more fit under `cap`. */
  const secondsUntilRoom = (current: number, calls: number, cap: number): number => {
    let excess = total - cap + calls;
    if (excess <= 0) return 0;
    // More than the whole cap never fits.
    if (calls > cap) return windowSeconds;
    const bucket = bucketOf(current);
    for (let age = size - 1; age >= 0; age--) {
      excess -= buckets[(bucket - age + size * 2) % size] as number;
      // The bucket `age` buckets old leaves when bucket (bucket - age + size) begins.
      if (excess <= 0) return Math.max(1, (bucket - age + size) * bucketSeconds - current);
    }
    return windowSeconds;
  };

  /** Counts `calls` in second `current`'s bucket and in the journal (negative: gives back). */
  const count = (current: number, calls: number) => {
    place(bucketOf(current), calls);
    journal?.record(current, calls);
  };

  /** Whether `calls` more may go now under `cap`: undefined if so, else the refusal. */
  const refusal = (calls: number, cap: number) => {
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
    if (total + calls > cap) {
      return {
        ok: false as const,
        reason: 'quota_exhausted' as const,
        retryAfterSeconds: secondsUntilRoom(current, calls, cap),
      };
    }
    return undefined;
  };

  const reserveUnder = (calls: number, cap: number): ReserveDecision => {
    if (calls <= 0) return { ok: true, reservation: NO_RESERVATION };
    const refused = refusal(calls, cap);
    if (refused !== undefined) return refused;
    const second = tick();
    count(second, calls);
    return {
      ok: true,
      reservation: reservationOf(calls, (unspent) => {
        tick();
        // Calls reserved a window ago have left it already.
        if (inWindow(bucketOf(second))) count(second, -unspent);
      }),
    };
  };

  const used = () => {
    tick();
    return total;
  };

  return {
    layout,
    tryAcquire() {
      const refused = refusal(1, budget);
      if (refused !== undefined) return refused;
      count(tick(), 1);
      return { ok: true };
    },
    reserve: (calls) => reserveUnder(calls, budget),
    reserveForJob: (calls) => reserveUnder(calls, jobCap),
    jobRoom: () => Math.max(0, jobCap - used()),
    secondsUntilJobRoom: (calls) => secondsUntilRoom(tick(), calls, jobCap),
    charge(calls) {
      if (calls > 0) count(tick(), calls);
    },
    pauseFor(seconds) {
      pausedUntil = Math.max(pausedUntil, now() + Math.max(0, seconds) * 1000);
      journal?.pause(pausedUntil);
    },
    secondsUntilRoomFor: (calls) => secondsUntilRoom(tick(), calls, budget),
    stats() {
      const ms = now();
      const inUse = used();
      return {
        budget,
        windowSeconds,
        usedInWindow: inUse,
        usedLastHour: inUse,
        pausedForSeconds: Math.max(0, Math.ceil((pausedUntil - ms) / 1000)),
      };
    },
  };
}
