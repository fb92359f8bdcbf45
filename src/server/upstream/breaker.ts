// A circuit breaker in front of the upstream as a whole. Per-page back-off (failure-backoff.ts)
// stops one failing page from being asked for over and over; when the upstream itself is down,
// every page fails, and each new page would still cost a call (and, against a hanging upstream,
// a full deadline). After `threshold` different pages have failed in a row with no answer in
// between, the breaker opens: no upstream call at all for `openMs`. Then it lets exactly one
// call through as a probe (half-open) and turns every other one away until the probe ends: an
// answer closes it, a failure opens it again for twice as long (up to `maxOpenMs`).
//
// Only real upstream calls are recorded, each with an outcome the caller classifies
// (upstream/failure.ts, `breakerOutcome`): a 5xx, a timeout, a network error or an unusable
// body is a failure; a 200, and the upstream's definite answers (400, 404, 401/403), show that
// it is up; a 429 says nothing about its health (the quota guard holds calls for its
// Retry-After), nor does a call that never went out, so both are neutral.
//
// Written here rather than with a resilience library's breaker (cockatiel's, for one): there,
// callers that arrive while the probe is out wait for the probe instead of being turned away,
// a call that never reached the upstream can only count as a success (which would close a
// half-open breaker untested), and the time until the next probe, which Retry-After needs, is
// not exposed.

export type BreakerState = 'closed' | 'open' | 'half-open';
export type BreakerOutcome = 'success' | 'failure' | 'neutral';

/** Leave to call the upstream (`probe`: the one half-open call), or why not and for how long. */
export type BreakerPass = { ok: true; probe: boolean } | { ok: false; retryAfterSeconds: number };

export interface BreakerStats {
  state: BreakerState;
  /** Different pages failed since the last answer (closed only). */
  failingPages: number;
  /** How long the breaker stays open next time (or now). */
  openMs: number;
  /** While open: seconds until the next probe may go. */
  retryAfterSeconds: number | null;
  /** Counters since start. */
  opened: number;
  probes: number;
  refused: number;
  successes: number;
  failures: number;
}

export interface BreakerOptions {
  /** Different pages failing in a row that open the breaker. */
  threshold?: number;
  /** How long the breaker first stays open. */
  openMs?: number;
  /** The longest it stays open after failed probes. */
  maxOpenMs?: number;
  /** Told of every change of state (for a log line). */
  onStateChange?: (state: BreakerState, stats: BreakerStats) => void;
  now?: () => number;
}

export interface UpstreamBreaker {
  /** Asks leave for one upstream call. Every pass granted must be `record`ed once. */
  pass(): BreakerPass;
  /** The outcome of a call made with `pass`; `page` names what was asked for. */
  record(pass: Extract<BreakerPass, { ok: true }>, outcome: BreakerOutcome, page: string): void;
  /**
   * Another replica's breaker opened for `ms` (shared-state/shared-breaker.ts): a closed
   * breaker opens too, for that long, as if its own pages had failed.
   */
  openFor(ms: number): void;
  stats(): BreakerStats;
}

/** What callers turned away during a probe are told: the probe's answer is due any moment. */
const DURING_PROBE_RETRY_SECONDS = 1;

export function createUpstreamBreaker(options: BreakerOptions = {}): UpstreamBreaker {
  const { threshold = 5, openMs: baseOpenMs = 5000, onStateChange, now = Date.now } = options;
  const maxOpenMs = Math.max(baseOpenMs, options.maxOpenMs ?? 60_000);
  let state: BreakerState = 'closed';
  /** Pages failed since the last answer; bounded by `threshold`, cleared when it opens. */
  const failing = new Set<string>();
  let openMs = baseOpenMs;
  let openUntil = 0;
  let probing = false;
  const counts = { opened: 0, probes: 0, refused: 0, successes: 0, failures: 0 };

  const stats = (): BreakerStats => ({
    state,
    failingPages: failing.size,
    openMs,
    retryAfterSeconds: state === 'open' ? Math.max(1, Math.ceil((openUntil - now()) / 1000)) : null,
    ...counts,
  });

  const moveTo = (next: BreakerState) => {
    state = next;
    onStateChange?.(next, stats());
  };

  const open = (forMs = openMs) => {
    failing.clear();
    openUntil = now() + forMs;
    counts.opened++;
    moveTo('open');
  };

  const refuse = (retryAfterSeconds: number): BreakerPass => {
    counts.refused++;
    return { ok: false, retryAfterSeconds };
  };

  return {
    pass() {
      if (state === 'closed') return { ok: true, probe: false };
      if (state === 'open') {
        const left = openUntil - now();
        if (left > 0) return refuse(Math.max(1, Math.ceil(left / 1000)));
        moveTo('half-open');
      }
      if (probing) return refuse(DURING_PROBE_RETRY_SECONDS);
      probing = true;
      counts.probes++;
      return { ok: true, probe: true };
    },

    record(pass, outcome, page) {
      if (outcome === 'success') counts.successes++;
      if (outcome === 'failure') counts.failures++;
      if (pass.probe) {
        probing = false;
        if (outcome === 'success') {
          openMs = baseOpenMs;
          moveTo('closed');
        } else if (outcome === 'failure') {
          openMs = Math.min(maxOpenMs, openMs * 2);
          open();
        }
        // Neutral: still half-open; the next caller probes.
        return;
      }
      // Calls sent before the breaker opened may end while it is open: only the probe decides.
      if (state !== 'closed') return;
      if (outcome === 'success') failing.clear();
      else if (outcome === 'failure') {
        failing.add(page);
        if (failing.size >= threshold) open();
      }
    },

    openFor(ms) {
      if (state !== 'closed' || ms <= 0) return;
      open(ms);
    },

    stats,
  };
}
