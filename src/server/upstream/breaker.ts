// A circuit breaker in front of the upstream as a whole. Per-page back-off spares one failing
// page; when the upstream itself is down every page fails, and each new page would still cost a
// call. After `threshold` different pages fail in a row the breaker opens for `openMs`, then lets
// one probe through (half-open): an answer closes it, a failure reopens it for longer.
// Refused credentials open it at once, and until the key is seen accepted only one call at a
// time goes out as a trial, the others waiting for its outcome, so a refused key is not paid for
// once per list. Outcomes are classified by the caller (pages/admission.ts, `breakerOutcome`).
// Why not a library's breaker: see docs/decisions/0002-upstream-circuit-breaker.md.

export type BreakerState = 'closed' | 'open' | 'half-open';
/** `refused`: the upstream refused the credentials (401/403). */
export type BreakerOutcome = 'success' | 'failure' | 'refused' | 'neutral';
/** Why the breaker is open: the upstream failing, or refusing the credentials. */
export type BreakerReason = 'failing' | 'credentials';
/** What is known of the credentials: accepted by an answer, refused by one, or not yet either. */
export type CredentialsState = 'unknown' | 'accepted' | 'refused';

/**
 * Leave to call the upstream (`probe`: the one half-open call; `trial`: the one call while the
 * credentials are not yet known to work), or why not and for how long.
 */
export type BreakerPass =
  | { ok: true; probe: boolean; trial: boolean }
  | { ok: false; retryAfterSeconds: number; reason: BreakerReason };

export interface BreakerStats {
  state: BreakerState;
  /** While open or half-open: why. */
  reason: BreakerReason | null;
  credentials: CredentialsState;
  /** Different pages failed since the last answer (closed only). */
  failingPages: number;
  /** How long the breaker stays open next time (or now). */
  openMs: number;
  /** While open: seconds until the next probe may go. */
  retryAfterSeconds: number | null;
  /** Callers waiting for the trial of the credentials. */
  waiting: number;
  /** Counters since start. */
  opened: number;
  probes: number;
  refused: number;
  successes: number;
  failures: number;
  /** Answers that refused the credentials. */
  rejections: number;
}

export interface BreakerOptions {
  /** Different pages failing in a row that open the breaker. */
  threshold?: number;
  /** How long the breaker first stays open. */
  openMs?: number;
  /** The longest it stays open after failed probes. */
  maxOpenMs?: number;
  /** The longest a caller waits for the trial of the credentials before it goes anyway. */
  trialWaitMs?: number;
  /** Told of every change of state (for a log line). */
  onStateChange?: (state: BreakerState, stats: BreakerStats) => void;
  now?: () => number;
}

export interface UpstreamBreaker {
  /**
   * Asks leave for one upstream call: at once, or, while the credentials are on trial, once
   * the trial ends. Every pass granted must be `record`ed once.
   */
  pass(): BreakerPass | Promise<BreakerPass>;
  /** The outcome of a call made with `pass`; `page` names what was asked for. */
  record(pass: Extract<BreakerPass, { ok: true }>, outcome: BreakerOutcome, page: string): void;
  /**
   * Another replica's breaker opened for `ms` (shared-state/shared-breaker.ts): a closed
   * breaker opens too, for that long, as if its own pages had failed.
   */
  openFor(ms: number): void;
  /**
   * While open: why, and when the next call may go. A call given leave before it opened is
   * asked again here once it has its slot, so that one refusal stops the calls queued behind it.
   */
  holding(): { reason: BreakerReason; retryAfterSeconds: number } | null;
  stats(): BreakerStats;
}

/** What callers turned away during a probe are told: the probe's answer is due any moment. */
const DURING_PROBE_RETRY_SECONDS = 1;
/** A little over the upstream client's default deadline (upstream/client.ts). */
const DEFAULT_TRIAL_WAIT_MS = 12_000;

type Granted = Extract<BreakerPass, { ok: true }>;

export function createUpstreamBreaker(options: BreakerOptions = {}): UpstreamBreaker {
  const {
    threshold = 5,
    openMs: baseOpenMs = 5000,
    trialWaitMs = DEFAULT_TRIAL_WAIT_MS,
    onStateChange,
    now = Date.now,
  } = options;
  const maxOpenMs = Math.max(baseOpenMs, options.maxOpenMs ?? 60_000);
  let state: BreakerState = 'closed';
  let reason: BreakerReason = 'failing';
  let credentials: CredentialsState = 'unknown';
  /** Pages failed since the last answer; bounded by `threshold`, cleared when it opens. */
  const failing = new Set<string>();
  let openMs = baseOpenMs;
  let openUntil = 0;
  let probing = false;
  /** The trial of the credentials out now (its pass, compared by identity), if any. */
  let trial: Granted | null = null;
  let trialSince = 0;
  /** Callers waiting for the trial's outcome: each is given its pass when it ends. */
  const waiting = new Set<(pass: BreakerPass) => void>();
  const counts = { opened: 0, probes: 0, refused: 0, successes: 0, failures: 0, rejections: 0 };

  const stats = (): BreakerStats => ({
    state,
    reason: state === 'closed' ? null : reason,
    credentials,
    failingPages: failing.size,
    openMs,
    retryAfterSeconds: state === 'open' ? Math.max(1, Math.ceil((openUntil - now()) / 1000)) : null,
    waiting: waiting.size,
    ...counts,
  });

  const moveTo = (next: BreakerState) => {
    state = next;
    onStateChange?.(next, stats());
  };

  const open = (why: BreakerReason, forMs = openMs) => {
    failing.clear();
    reason = why;
    openUntil = now() + forMs;
    counts.opened++;
    moveTo('open');
  };

  const refuse = (retryAfterSeconds: number): BreakerPass => {
    counts.refused++;
    return { ok: false, retryAfterSeconds, reason };
  };

  const go = (): Granted => ({ ok: true, probe: false, trial: false });

  /** Leave as the breaker stands now; null: wait for the trial out. */
  function decide(): BreakerPass | null {
    if (state === 'closed') {
      if (credentials === 'accepted') return go();
      if (trial !== null) return null;
      trial = { ok: true, probe: false, trial: true };
      trialSince = now();
      return trial;
    }
    if (state === 'open') {
      const left = openUntil - now();
      if (left > 0) return refuse(Math.max(1, Math.ceil(left / 1000)));
      moveTo('half-open');
    }
    if (probing) return refuse(DURING_PROBE_RETRY_SECONDS);
    probing = true;
    counts.probes++;
    return { ok: true, probe: true, trial: false };
  }

  function waitForTrial(): Promise<BreakerPass> {
    return new Promise((resolve) => {
      const done = (pass: BreakerPass) => {
        clearTimeout(timer);
        waiting.delete(done);
        resolve(pass);
      };
      // A trial that takes too long (or whose pass was never recorded) holds no one for ever:
      // the caller goes, and the next one to arrive is the next trial.
      const timer = setTimeout(() => {
        if (now() - trialSince >= trialWaitMs) trial = null;
        done(go());
      }, trialWaitMs);
      // Nothing to wait for once the process is on its way out.
      timer.unref();
      waiting.add(done);
    });
  }

  /**
   * The trial ended: what the callers waiting for it get. Refused: the open breaker's answer.
   * Nothing learnt (never sent): the trial passes to the first of them. Otherwise they go.
   */
  function endTrial(outcome: BreakerOutcome) {
    trial = null;
    for (const done of [...waiting]) {
      if (outcome === 'neutral' || state !== 'closed') {
        const pass = decide();
        if (pass !== null) done(pass);
      } else done(go());
    }
  }

  return {
    pass() {
      return decide() ?? waitForTrial();
    },

    record(pass, outcome, page) {
      if (outcome === 'success') counts.successes++;
      if (outcome === 'failure') counts.failures++;
      if (outcome === 'refused') counts.rejections++;
      // What the answer says of the key, whenever the call was sent.
      if (outcome === 'success') credentials = 'accepted';
      if (outcome === 'refused') credentials = 'refused';
      if (pass.probe) {
        probing = false;
        if (outcome === 'success') {
          openMs = baseOpenMs;
          moveTo('closed');
        } else if (outcome === 'failure' || outcome === 'refused') {
          openMs = Math.min(maxOpenMs, openMs * 2);
          open(outcome === 'refused' ? 'credentials' : 'failing');
        }
        // Neutral: still half-open; the next caller probes.
      } else if (state === 'closed') {
        // Calls sent before the breaker opened may end while it is open: only the probe decides.
        if (outcome === 'success') failing.clear();
        else if (outcome === 'refused') open('credentials');
        else if (outcome === 'failure') {
          failing.add(page);
          if (failing.size >= threshold) open('failing');
        }
      }
      if (pass === trial) endTrial(outcome);
    },

    openFor(ms) {
      if (state !== 'closed' || ms <= 0) return;
      open('failing', ms);
    },

    holding() {
      const left = openUntil - now();
      if (state !== 'open' || left <= 0) return null;
      return { reason, retryAfterSeconds: Math.max(1, Math.ceil(left / 1000)) };
    },

    stats,
  };
}
