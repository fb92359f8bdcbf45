// The window the account's quota is counted in. The real service counts per sliding hour
// (spec §2.3), but other deployments count per day, and tests and benches want a
// window of seconds, so the length is a setting (CATALOGUE_QUOTA_WINDOW, config.ts) and every
// part that counts calls (quota-guard.ts, quota-journal.ts, client-shares.ts,
// shared-state/shared-quota.ts) takes it from here rather than assuming an hour.

export const HOUR_SECONDS = 3600;
/** Shorter than a second, a per-second count cannot tell the window from its buckets. */
export const MIN_WINDOW_SECONDS = 1;
/** A week: longer windows are not a quota anyone counts, and the journal keeps the window. */
export const MAX_WINDOW_SECONDS = 7 * 24 * HOUR_SECONDS;
/** The most buckets a window is counted in: an hour's worth at one per second (14 KB). */
export const MAX_BUCKETS = HOUR_SECONDS;
/** The share of the window's budget kept for readers when nothing else is said (config.ts). */
export const DEFAULT_JOB_READER_RESERVE = 0.2;

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: HOUR_SECONDS, d: 24 * HOUR_SECONDS };

/**
 * A window's length in seconds from `30s`, `15m`, `1h`, `24h`, `1d` or a bare whole number of
 * seconds; a string saying what is wrong otherwise (config.ts turns it into a ConfigError).
 */
export function parseWindowDuration(text: string): number | string {
  const match = /^(\d{1,9})\s*([smhd]?)$/i.exec(text.trim());
  if (match === null)
    return `"${text}" is not a duration: write a whole number with s, m, h or d (e.g. 90s, 15m, 1h, 24h), or seconds alone`;
  const seconds = Number(match[1]) * (UNIT_SECONDS[(match[2] || 's').toLowerCase()] as number);
  if (seconds < MIN_WINDOW_SECONDS) return `"${text}" is shorter than ${MIN_WINDOW_SECONDS} s`;
  if (seconds > MAX_WINDOW_SECONDS) return `"${text}" is longer than 7 days`;
  return seconds;
}

/** A window's length as people write it: `1h`, `24h`, `15m`, `90s`. */
export function formatWindow(seconds: number): string {
  if (seconds % HOUR_SECONDS === 0) return `${seconds / HOUR_SECONDS}h`;
  if (seconds % 60 === 0) return `${seconds / 60}m`;
  return `${seconds}s`;
}

export interface WindowLayout {
  windowSeconds: number;
  /** Seconds one bucket counts: 1 up to an hour, then window / 3600 rounded up. */
  bucketSeconds: number;
  /** Buckets kept: at most MAX_BUCKETS + 1, whatever the window, so memory stays constant. */
  buckets: number;
  /** Seconds a call can stay counted at most (buckets × bucketSeconds). */
  spanSeconds: number;
}

/**
 * How a window is counted in buckets. Up to an hour, one bucket per second: a call made in
 * second s counts until second s + window begins, as it always has. Longer windows use coarser
 * buckets so the memory stays that of an hour; a call then leaves only when its whole bucket
 * does, never before it is `windowSeconds` old (it may count up to two buckets longer), so a
 * coarse window can be stricter than the upstream's, never looser.
 */
export function windowLayout(windowSeconds: number): WindowLayout {
  if (!Number.isInteger(windowSeconds) || windowSeconds < MIN_WINDOW_SECONDS)
    throw new RangeError(`a quota window is a whole number of seconds from 1: ${windowSeconds}`);
  const bucketSeconds = Math.max(1, Math.ceil(windowSeconds / MAX_BUCKETS));
  // The latest second of a bucket must still count `windowSeconds` later.
  const buckets = Math.ceil((windowSeconds + bucketSeconds - 1) / bucketSeconds);
  return { windowSeconds, bucketSeconds, buckets, spanSeconds: buckets * bucketSeconds };
}

/** The calls of the window a job may count up to: what is left when the readers' part is kept. */
export function jobCapOf(budget: number, readerReserve: number): number {
  return Math.max(0, Math.floor(budget * (1 - readerReserve)));
}
