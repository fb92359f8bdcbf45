// The one rule for waiting between tries, in the app and the server: the wait doubles with each
// failure, up to a cap, and may be spread by a random part so that many clients failing together
// do not come back together.

export interface Backoff {
  /** The wait after the first failure. */
  firstMs: number;
  /** No wait is longer than this. */
  maxMs: number;
  /** The part of the wait drawn at random either side of it: 0 (none) to 1. */
  jitter?: number;
}

/** The wait after the `failures`-th failure in a row (1 for the first). */
export function backoffMs(
  failures: number,
  { firstMs, maxMs, jitter = 0 }: Backoff,
  random: () => number = Math.random,
): number {
  // The exponent stops growing long before a double overflows.
  const base = Math.min(maxMs, firstMs * 2 ** Math.min(Math.max(0, failures - 1), 30));
  if (jitter === 0) return base;
  return Math.max(1, Math.round(base * (1 - jitter + 2 * jitter * random())));
}
