import { backoffMs } from '../../shared/backoff.ts';
import { LRUCache } from 'lru-cache';

// Per-page back-off: a page whose upstream call just failed is not asked for again at once, so
// requests for a failing page do not spend the shared quota (spec §2.3) on calls that will fail
// the same way. The wait doubles with each failure in a row, from `initialMs` to `maxMs`,
// jittered; meanwhile askers get what the last failure gave (page-source.ts decides). At most
// `maxEntries` pages are held, and a page's streak is forgotten once it has been quiet for
// `maxMs` after its wait. Forgetting is done here rather than by lru-cache's `ttl`, which reads a
// clock at 0 as "no TTL", expires an instant later than a streak ends, and sweeps only lazily.

export interface FailureBackoffOptions {
  /** The first wait after a failure. */
  initialMs?: number;
  /** The longest wait, however many failures in a row. */
  maxMs?: number;
  /** How many pages the table remembers at most. */
  maxEntries?: number;
  /** Each wait is scaled by a random factor in 1 ± jitter. */
  jitter?: number;
  now?: () => number;
  random?: () => number;
}

/** A page being held back: what its last failure gave, and how long the hold lasts. */
export interface BackoffHold<T> {
  detail: T;
  /** Failures in a row, this one included. */
  failures: number;
  /** When the page may be asked for again (the clock's ms). */
  untilMs: number;
  /** Whole seconds until then, at least 1: for a Retry-After header. */
  retryAfterSeconds: number;
}

export interface FailureBackoffStats {
  /** Pages remembered (holding or within their quiet period). */
  entries: number;
  maxEntries: number;
  /** Failures recorded since start. */
  failures: number;
  /** Requests answered from a hold instead of an upstream call, since start. */
  held: number;
}

export interface FailureBackoff<T> {
  /** The hold on `key` when one is in force (and counts the request as held). */
  holding(key: string): BackoffHold<T> | undefined;
  /** `key`'s call failed: starts or lengthens its hold. */
  failed(key: string, detail: T): BackoffHold<T>;
  /** `key` got an answer (a page, or a definite refusal): its streak is over. */
  succeeded(key: string): void;
  stats(): FailureBackoffStats;
}

interface Entry<T> {
  detail: T;
  failures: number;
  untilMs: number;
  forgetAtMs: number;
}

/** Failing pages remembered at most, by default. */
export const MAX_FAILING_PAGES = 10_000;

export function createFailureBackoff<T>(options: FailureBackoffOptions = {}): FailureBackoff<T> {
  const {
    initialMs = 1000,
    maxMs = 30_000,
    maxEntries = MAX_FAILING_PAGES,
    jitter = 0.2,
    now = Date.now,
    random = Math.random,
  } = options;
  const entries = new LRUCache<string, Entry<T>>({ max: maxEntries });
  let failures = 0;
  let held = 0;

  const hold = (entry: Entry<T>, at: number): BackoffHold<T> => ({
    detail: entry.detail,
    failures: entry.failures,
    untilMs: entry.untilMs,
    retryAfterSeconds: Math.max(1, Math.ceil((entry.untilMs - at) / 1000)),
  });

  /** Drops forgotten entries from the old end; each entry is dropped once, so O(1) on average. */
  const sweep = (at: number) => {
    const forgotten: string[] = [];
    // From the page that failed longest ago; deleted after the walk rather than during it.
    for (const key of entries.rkeys()) {
      if (entries.peek(key)!.forgetAtMs > at) break;
      forgotten.push(key);
    }
    for (const key of forgotten) entries.delete(key);
  };

  return {
    holding(key) {
      const entry = entries.peek(key);
      if (entry === undefined) return undefined;
      const at = now();
      if (entry.forgetAtMs <= at) {
        entries.delete(key);
        return undefined;
      }
      if (entry.untilMs <= at) return undefined; // free to ask again; the streak is remembered
      held++;
      return hold(entry, at);
    },

    failed(key, detail) {
      const at = now();
      failures++;
      sweep(at);
      const previous = entries.peek(key);
      const streak = previous !== undefined && previous.forgetAtMs > at ? previous.failures : 0;
      const count = streak + 1;
      const waitMs = backoffMs(count, { firstMs: initialMs, maxMs, jitter }, random);
      const entry: Entry<T> = {
        detail,
        failures: count,
        untilMs: at + waitMs,
        forgetAtMs: at + waitMs + maxMs,
      };
      // Now the most recent; past `maxEntries`, the page that failed longest ago goes.
      entries.set(key, entry);
      return hold(entry, at);
    },

    succeeded(key) {
      entries.delete(key);
    },

    stats: () => ({ entries: entries.size, maxEntries, failures, held }),
  };
}
