import type { Problem } from '../../shared/problem.ts';

// Every way a request can fail, as one error type the views can explain (spec §2.2).

export type ApiErrorKind =
  /** The server answered with an error status (with a problem document when it sent one). */
  | 'http'
  /** No answer: offline, connection refused, DNS. */
  | 'network'
  /** An answer that does not match the contract (cut-off JSON, wrong shape). */
  | 'malformed';

export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly kind: ApiErrorKind;
  readonly status: number | null;
  readonly problem: Problem | null;
  /** Seconds the server asked us to wait (problem `retryAfter` or the Retry-After header). */
  readonly retryAfter: number | null;

  constructor(
    kind: ApiErrorKind,
    message: string,
    details: {
      status?: number;
      problem?: Problem | null;
      retryAfter?: number | null;
      cause?: unknown;
    } = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.kind = kind;
    this.status = details.status ?? null;
    this.problem = details.problem ?? null;
    this.retryAfter = details.retryAfter ?? null;
  }

  get code(): string | null {
    return this.problem?.code ?? null;
  }

  /**
   * 4xx answers are the caller's or the data's: asking again gives the same answer, so they are
   * not retried automatically. 429 is left to the user too, with the wait time shown.
   */
  get isClientError(): boolean {
    return this.kind === 'http' && this.status !== null && this.status >= 400 && this.status < 500;
  }
}

/**
 * An ApiError back from its JSON form: errors in a dehydrated query cache (a server-rendered
 * not-found view) arrive as plain objects, and the views explain only ApiErrors.
 */
export function reviveApiError(raw: unknown): ApiError | null {
  if (raw instanceof ApiError) return raw;
  if (typeof raw !== 'object' || raw === null) return null;
  const { kind, message, status, problem, retryAfter } = raw as Record<string, unknown>;
  if (kind !== 'http' && kind !== 'network' && kind !== 'malformed') return null;
  // The server wrote it from a checked problem document; a shape check is enough, and keeps
  // the schemas out of the entry chunk.
  const isProblem =
    typeof problem === 'object' &&
    problem !== null &&
    typeof (problem as Problem).code === 'string' &&
    typeof (problem as Problem).title === 'string';
  return new ApiError(kind, typeof message === 'string' ? message : 'Request failed', {
    status: typeof status === 'number' ? status : undefined,
    problem: isProblem ? (problem as Problem) : null,
    retryAfter: typeof retryAfter === 'number' ? retryAfter : null,
  });
}
