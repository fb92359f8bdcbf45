import { isProblemCode, statusOf } from '../../shared/problem-codes.ts';
import { problemSchema, type ProblemCode } from '../../shared/problem.ts';
import { retryAfterSeconds } from '../../shared/retry-after.ts';
import type { BreakerReason } from './breaker.ts';
import type { Lookup } from './lookup.ts';

// What can go wrong with an upstream call, and what each failure means, in one place: how an
// upstream status or a thrown error becomes a failure (and whether another try may help), and
// how a failure becomes the problem the browser gets. The browser never sees the upstream's
// own status: a refused credential or a crashed upstream is the explorer's 502, not a 401 or
// a 500, while the upstream's definite answers about the input (400, 404) pass through with
// their codes (spec §2.2).

export type UpstreamFailure =
  | {
      kind: 'bad_request';
      upstreamStatus: 400;
      detail: string | undefined;
      code: string | undefined;
    }
  | { kind: 'not_found'; upstreamStatus: 404; detail: string | undefined; code: string | undefined }
  | { kind: 'rate_limited'; upstreamStatus: 429; retryAfterSeconds: number }
  | { kind: 'credentials_rejected'; upstreamStatus: 401 | 403 }
  | { kind: 'server_error'; upstreamStatus: number }
  | { kind: 'bad_response'; upstreamStatus: number; reason: string }
  | { kind: 'timeout'; upstreamStatus: undefined }
  | { kind: 'unreachable'; upstreamStatus: undefined; reason: string }
  /** Never sent: the breaker opened while the call waited for its slot. */
  | { kind: 'held'; upstreamStatus: undefined; reason: BreakerReason; retryAfterSeconds: number }
  | {
      kind: 'quota_exhausted' | 'quota_paused';
      upstreamStatus: undefined;
      retryAfterSeconds: number;
    };

/** A failed attempt, classified: whether a retry may help, and how long to wait first. */
export interface ClassifiedFailure {
  failure: UpstreamFailure;
  retryable: boolean;
  retryAfterMs?: number;
}

/** What the browser gets for a failure; its status is its code's (problem-codes.ts). */
export interface FailureProblem {
  status: number;
  code: ProblemCode;
  detail: string;
  retryAfterSeconds?: number;
}

export function failureProblem(
  code: ProblemCode,
  detail: string,
  retryAfterSeconds?: number,
): FailureProblem {
  const problem: FailureProblem = { status: statusOf(code), code, detail };
  if (retryAfterSeconds !== undefined) problem.retryAfterSeconds = retryAfterSeconds;
  return problem;
}

/** Only a gateway's statuses suggest that the same request may succeed a moment later. */
const RETRYABLE_STATUSES = new Set([502, 503, 504]);
/** When a 429 names no Retry-After, wait this long before calling again. */
const DEFAULT_RETRY_AFTER_SECONDS = 30;
/** How long the browser is told to wait when the upstream cannot be reached at all. */
const UNREACHABLE_RETRY_AFTER_SECONDS = 5;

/** The upstream's Retry-After, bounded: a wait of none or of days is not taken as said. */
export function upstreamRetryAfter(
  value: string | string[] | undefined,
  now = Date.now(),
): number | undefined {
  const seconds = retryAfterSeconds(value, now);
  return seconds === null ? undefined : Math.min(3600, Math.max(1, seconds));
}

/** An upstream problem body's code and detail, when it is one; they are shown to the user. */
function readProblem(body: Buffer): { code: string | undefined; detail: string | undefined } {
  try {
    const parsed = problemSchema.safeParse(JSON.parse(body.toString('utf8')));
    if (parsed.success) return { code: parsed.data.code, detail: parsed.data.detail };
  } catch {
    // Not JSON: the mapping below falls back to its own wording.
  }
  return { code: undefined, detail: undefined };
}

const never = (failure: UpstreamFailure): ClassifiedFailure => ({ failure, retryable: false });

/** What an upstream answer other than 200 means. */
export function failureOfStatus(
  status: number,
  body: Buffer,
  retryAfter: string | string[] | undefined,
): ClassifiedFailure {
  if (status === 400)
    return never({ kind: 'bad_request', upstreamStatus: 400, ...readProblem(body) });
  if (status === 404)
    return never({ kind: 'not_found', upstreamStatus: 404, ...readProblem(body) });
  if (status === 401 || status === 403)
    return never({ kind: 'credentials_rejected', upstreamStatus: status });
  if (status === 429) {
    const retryAfterSeconds = upstreamRetryAfter(retryAfter) ?? DEFAULT_RETRY_AFTER_SECONDS;
    return never({ kind: 'rate_limited', upstreamStatus: 429, retryAfterSeconds });
  }
  // Redirects are not followed: the credentials must go to the configured host only.
  if (status >= 300 && status < 400)
    return never({ kind: 'bad_response', upstreamStatus: status, reason: 'redirect not followed' });
  const seconds = upstreamRetryAfter(retryAfter);
  return {
    failure: { kind: 'server_error', upstreamStatus: status },
    retryable: RETRYABLE_STATUSES.has(status),
    retryAfterMs: seconds === undefined ? undefined : seconds * 1000,
  };
}

/** What a thrown error means: the deadline passed, the size cap, or the network failed. */
export function failureOfError(
  error: unknown,
  deadlinePassed: boolean,
  status: number | undefined,
): ClassifiedFailure {
  if (deadlinePassed) return never({ kind: 'timeout', upstreamStatus: undefined });
  const code = (error as { code?: unknown }).code;
  if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') return bodyTooLarge(status ?? 200);
  return {
    failure: {
      kind: 'unreachable',
      upstreamStatus: undefined,
      reason: typeof code === 'string' ? code : 'network error',
    },
    // A refused or reset connection may well work on the next try.
    retryable: true,
  };
}

export const bodyTooLarge = (status: number): ClassifiedFailure =>
  never({ kind: 'bad_response', upstreamStatus: status, reason: 'body over the size cap' });

/** What a call the breaker holds back gets: why, and when the next call may go. */
export const heldProblem = (reason: BreakerReason, retryAfterSeconds: number): FailureProblem =>
  reason === 'credentials'
    ? failureProblem(
        'upstream_credentials_rejected',
        'The catalogue refused the explorer’s credentials; no lookup is sent until it accepts them again (the operator has to fix the configuration).',
        retryAfterSeconds,
      )
    : failureProblem(
        'upstream_unavailable',
        'The catalogue has been failing; the explorer is giving it a moment.',
        retryAfterSeconds,
      );

/** Turns an upstream failure into what the browser gets. */
export function problemFor(lookup: Lookup, failure: UpstreamFailure): FailureProblem {
  switch (failure.kind) {
    case 'bad_request': {
      // The upstream's own code when it is one of ours for a 400: it says best what was wrong.
      const given = failure.code;
      const code: ProblemCode =
        given !== undefined && isProblemCode(given) && statusOf(given) === 400
          ? given
          : lookup.continuation === undefined
            ? 'invalid_id'
            : 'invalid_continuation';
      return failureProblem(code, failure.detail ?? 'The catalogue did not accept this request.');
    }
    case 'not_found': {
      const code: ProblemCode =
        failure.code === 'playlist_not_found' ||
        failure.code === 'channel_not_found' ||
        failure.code === 'not_found'
          ? failure.code
          : lookup.endpoint === 'playlist'
            ? 'playlist_not_found'
            : 'channel_not_found';
      return failureProblem(code, failure.detail ?? 'The catalogue has no such item.');
    }
    case 'rate_limited':
    case 'quota_paused':
      return failureProblem(
        'upstream_rate_limited',
        'The catalogue asked the explorer to slow down; try again shortly.',
        failure.retryAfterSeconds,
      );
    case 'quota_exhausted':
      return failureProblem(
        'quota_exhausted',
        "The explorer has used this window's catalogue quota; try again later.",
        failure.retryAfterSeconds,
      );
    case 'credentials_rejected':
      return failureProblem(
        'upstream_credentials_rejected',
        'The catalogue rejected the explorer’s credentials; the operator has to fix its configuration.',
      );
    case 'server_error':
      return failureProblem(
        'upstream_error',
        `The catalogue failed to answer (status ${failure.upstreamStatus}).`,
      );
    case 'bad_response':
      return failureProblem(
        'upstream_bad_response',
        'The catalogue sent an answer the explorer cannot use.',
      );
    case 'timeout':
      return failureProblem('upstream_timeout', 'The catalogue did not answer in time.');
    case 'held':
      return heldProblem(failure.reason, failure.retryAfterSeconds);
    case 'unreachable':
      return failureProblem(
        'upstream_unavailable',
        'The catalogue cannot be reached right now.',
        UNREACHABLE_RETRY_AFTER_SECONDS,
      );
  }
}
