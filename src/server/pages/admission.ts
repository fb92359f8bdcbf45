import type { ClientRateLimit, RateDecision } from '../quota/client-rate-limit.ts';
import { prepaid } from '../quota/prepaid-calls.ts';
import type { BreakerOutcome, BreakerPass, UpstreamBreaker } from '../upstream/breaker.ts';
import type { UpstreamResult } from '../upstream/client.ts';
import { heldProblem } from '../upstream/failure.ts';
import type { BackoffHold, FailureBackoff } from './failure-backoff.ts';
import type { HeldFailure, PageAnswer, StoredPage } from './page-entry.ts';

// Whether a request may call the upstream, and what each call teaches about it: a page that just
// failed is held back (failure-backoff.ts); a failing upstream or a refused key gets only its
// probe or trial (upstream/breaker.ts); a client over its allowance waits
// (quota/client-rate-limit.ts). The breaker is asked first, so a request it turns away spends
// nothing of its client's allowance: many followed lists refused at once would otherwise drain it
// and be told to slow down rather than why. A request turned away gets the page's stale copy when
// there is one, else the problem, and spends no quota either way.

/** The breaker's leave for one call; undefined without a breaker. */
export type CallPass = Extract<BreakerPass, { ok: true }> | undefined;

export type Admitted = { ok: true; pass: CallPass } | { ok: false; answer: PageAnswer };

export interface Admission {
  /**
   * Decided without yielding when the allowance is kept in memory and the breaker holds no one
   * for the key's trial, so that two requests for one page arriving together still merge (and
   * the second costs its client nothing).
   */
  admit(
    key: string,
    client: string,
    previous: StoredPage | undefined,
  ): Admitted | Promise<Admitted>;
  /** The pass went unused: the request merged into a call already on its way. */
  unused(key: string, pass: CallPass): void;
  /**
   * Tells the breaker and the back-off how the call went. A failure another call a moment later
   * would likely meet again holds the page back: its hold is returned.
   */
  settle(
    key: string,
    pass: CallPass,
    result: UpstreamResult,
    failure: HeldFailure | undefined,
  ): BackoffHold<HeldFailure> | undefined;
  /** While the breaker holds every call: seconds until it lets the next one go. */
  nextCallIn(): number | undefined;
}

/**
 * A request the explorer will not send upstream now: the stale copy when there is one, else
 * the problem, with no quota spent either way.
 */
export const withheld = (previous: StoredPage | undefined, problem: HeldFailure): PageAnswer =>
  previous !== undefined
    ? { kind: 'page', page: previous, cache: 'stale' }
    : { kind: 'problem', ...problem, cache: 'none' };

/** How an upstream result speaks of the upstream's health. */
function breakerOutcome(result: UpstreamResult): BreakerOutcome {
  if (result.ok) return 'success';
  // Never sent (no quota, no free slot): nothing learnt about the upstream.
  if (result.attempts === 0) return 'neutral';
  switch (result.failure.kind) {
    case 'server_error':
    case 'bad_response':
    case 'timeout':
    case 'unreachable':
      return 'failure';
    case 'bad_request':
    case 'not_found':
      // A definite answer about the input: the upstream is up, and took the credentials.
      return 'success';
    case 'credentials_rejected':
      // Every call would meet the same refusal: the breaker opens for all of them.
      return 'refused';
    default:
      // A 429, or a call the quota guard never let out: nothing about its health.
      return 'neutral';
  }
}

/**
 * Failures another call a moment later would likely meet again, so the page is held back: the
 * upstream's own failures, and refused credentials (the upstream is up, but every call would
 * spend quota on the same refusal until an operator fixes the configuration).
 */
const isTransient = (outcome: BreakerOutcome) => outcome === 'failure' || outcome === 'refused';

export function createAdmission(options: {
  clientRateLimit: ClientRateLimit;
  backoff?: FailureBackoff<HeldFailure>;
  breaker?: UpstreamBreaker;
}): Admission {
  const { clientRateLimit, backoff, breaker } = options;

  /** What a request the breaker turns away gets: it says why, and when to ask again. */
  const turnedAway = (
    pass: Extract<BreakerPass, { ok: false }>,
    previous: StoredPage | undefined,
  ): Admitted => ({
    ok: false,
    answer: withheld(previous, heldProblem(pass.reason, pass.retryAfterSeconds)),
  });

  function afterAllowance(
    allowed: RateDecision,
    key: string,
    pass: CallPass,
    previous: StoredPage | undefined,
  ): Admitted {
    if (allowed.ok) return { ok: true, pass };
    // The breaker's leave goes unused (a probe or a trial passes to the next caller).
    if (pass !== undefined) breaker?.record(pass, 'neutral', key);
    return {
      ok: false,
      answer: withheld(
        previous,
        allowed.limit === 'share'
          ? {
              status: 429,
              code: 'share_exhausted',
              detail: 'This address has spent its share of the window’s catalogue quota.',
              retryAfterSeconds: allowed.retryAfterSeconds,
            }
          : {
              status: 429,
              code: 'rate_limited',
              detail: 'Too many new pages requested from this address; slow down a little.',
              retryAfterSeconds: allowed.retryAfterSeconds,
            },
      ),
    };
  }

  function afterBreaker(
    given: BreakerPass | undefined,
    key: string,
    client: string,
    previous: StoredPage | undefined,
  ): Admitted | Promise<Admitted> {
    if (given !== undefined && !given.ok) return turnedAway(given, previous);
    const pass: CallPass = given;
    // From here on the request would spend quota, so the client's allowance applies, unless
    // a walk has paid for the call already (its client's share charged when it started).
    if (prepaid() !== undefined) return { ok: true, pass };
    const allowed = clientRateLimit.take(client);
    if (!(allowed instanceof Promise)) return afterAllowance(allowed, key, pass, previous);
    return allowed.then(
      (decision) => afterAllowance(decision, key, pass, previous),
      (error: unknown) => {
        // A leave never used must still be given back, or a probe would be out for ever.
        if (pass !== undefined) breaker?.record(pass, 'neutral', key);
        throw error;
      },
    );
  }

  return {
    admit(key, client, previous) {
      // A page that just failed is held back: its stale copy, or its problem, at no quota.
      const hold = backoff?.holding(key);
      if (hold !== undefined) {
        return {
          ok: false,
          answer: withheld(previous, { ...hold.detail, retryAfterSeconds: hold.retryAfterSeconds }),
        };
      }
      // Only its probe while the upstream fails as a whole; the key's trial, waited for.
      const pass = breaker?.pass();
      return pass instanceof Promise
        ? pass.then((given) => afterBreaker(given, key, client, previous))
        : afterBreaker(pass, key, client, previous);
    },
    unused(key, pass) {
      if (pass !== undefined) breaker?.record(pass, 'neutral', key);
    },
    nextCallIn: () => breaker?.holding()?.retryAfterSeconds,
    settle(key, pass, result, failure) {
      const outcome = breakerOutcome(result);
      if (pass !== undefined) breaker?.record(pass, outcome, key);
      if (!isTransient(outcome)) {
        backoff?.succeeded(key);
        return undefined;
      }
      return failure === undefined ? undefined : backoff?.failed(key, failure);
    },
  };
}
