import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { endpoints } from '../shared/endpoints.ts';
import { problemSchema } from '../shared/problem.ts';
import type { QuotaGuard } from './quota-guard.ts';
import type { Lookup } from './validate-lookup.ts';

// Calls the lookup service (../shared/spec/catalogue-api.md §4-5) for the explorer (issue #3,
// "Upstream calls"):
// - an undici Pool keeps connections alive (about twice as fast as global fetch here);
// - one deadline covers the whole call, retries included;
// - at most `retries` retries, with jittered exponential backoff, for network errors and
//   502/503/504 only, never for other statuses;
// - every attempt asks the quota guard first (retries spend quota too);
// - redirects are not followed, bodies are capped, and a 200 is parsed and checked against
//   the shared schema before anyone sees it;
// - the request is built from scratch: fixed base URL and path, the two allowlisted
//   parameters, and our own headers. Nothing from the browser's request is forwarded.
// The credentials appear in exactly one place below (the request headers) and in no log line.

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
  | {
      kind: 'quota_exhausted' | 'quota_paused';
      upstreamStatus: undefined;
      retryAfterSeconds: number;
    };

export type UpstreamResult =
  | { ok: true; upstreamStatus: 200; body: Buffer; attempts: number }
  | { ok: false; failure: UpstreamFailure; attempts: number };

export interface UpstreamHealth {
  /** The last answer about the credentials was a 401/403 (issue #3: /readyz degraded). */
  credentialsRejected: boolean;
  lastSuccessAt: number | null;
  lastFailureAt: number | null;
}

export interface UpstreamClient {
  fetchPage(lookup: Lookup): Promise<UpstreamResult>;
  health(): UpstreamHealth;
  close(): Promise<void>;
}

export interface UpstreamLogger {
  error(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  debug(obj: object, msg?: string): void;
}

export interface UpstreamClientOptions {
  /** e.g. https://api.example.com or http://127.0.0.1:43123; may carry a path prefix. */
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
  quota: QuotaGuard;
  logger: UpstreamLogger;
  /** The whole call, retries and backoff included. */
  deadlineMs?: number;
  /** 0, 1 or 2. */
  retries?: number;
  /** First backoff; later ones double, each jittered by ×0.5-1.5. */
  backoffMs?: number;
  maxBodyBytes?: number;
  connections?: number;
  random?: () => number;
}

const RETRYABLE_STATUSES = new Set([502, 503, 504]);
/** When a 429 names no Retry-After, wait this long before calling again. */
const DEFAULT_RETRY_AFTER_SECONDS = 30;

/** Retry-After as delay-seconds or an HTTP-date (RFC 9110 §10.2.3), bounded to 1 s-1 h. */
export function parseRetryAfter(
  value: string | string[] | undefined,
  now = Date.now(),
): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || text.trim() === '') return undefined;
  let seconds: number;
  if (/^\s*\d+\s*$/.test(text)) seconds = Number(text);
  else {
    const date = Date.parse(text);
    if (Number.isNaN(date)) return undefined;
    seconds = Math.ceil((date - now) / 1000);
  }
  return Math.min(3600, Math.max(1, seconds));
}

/** The upstream request target: fixed path, the allowlisted parameters, exact encoding. */
export function upstreamPath(basePath: string, lookup: Lookup): string {
  // encodeURIComponent escapes `%`, `=`, `+`, `/` and `&`, so the upstream decodes exactly the
  // bytes the browser sent (spec §2.6).
  let path = `${basePath}${endpoints[lookup.endpoint].path}?id=${encodeURIComponent(lookup.id)}`;
  if (lookup.continuation !== undefined)
    path += `&continuation=${encodeURIComponent(lookup.continuation)}`;
  return path;
}

async function readBody(body: AsyncIterable<Buffer>, maxBytes: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += chunk.length;
    if (size > maxBytes) return null;
    chunks.push(chunk);
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size);
}

/** Checks a 200 body: JSON, the endpoint's page schema, and `info` on a first playlist page. */
export function checkPage(lookup: Lookup, body: Buffer): string | null {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return 'the body is not JSON';
  }
  const parsed = endpoints[lookup.endpoint].pageSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `the page does not match the spec (${issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'schema'})`;
  }
  // Spec §4.1: the first page (no continuation) carries `info`; the app needs it for the header.
  if (
    lookup.endpoint === 'playlist' &&
    lookup.continuation === undefined &&
    !('info' in parsed.data && parsed.data.info)
  ) {
    return 'the first playlist page has no `info`';
  }
  return null;
}

/** An upstream problem body's code and detail, when it is one; they are shown to the user. */
function readProblem(body: Buffer | null): {
  code: string | undefined;
  detail: string | undefined;
} {
  if (body === null) return { code: undefined, detail: undefined };
  try {
    const parsed = problemSchema.safeParse(JSON.parse(body.toString('utf8')));
    if (parsed.success) return { code: parsed.data.code, detail: parsed.data.detail };
  } catch {
    // Not JSON: the caller falls back to its own wording.
  }
  return { code: undefined, detail: undefined };
}

export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  const {
    quota,
    logger,
    deadlineMs = 10_000,
    retries = 2,
    backoffMs = 100,
    maxBodyBytes = 2 * 1024 * 1024,
    connections = 64,
    random = Math.random,
  } = options;
  const base = new URL(options.baseUrl);
  const basePath = base.pathname.replace(/\/+$/, '');
  const pool = new Pool(base.origin, {
    connections,
    // Belt and braces with readBody's own cap.
    maxResponseSize: maxBodyBytes,
    headersTimeout: deadlineMs,
    bodyTimeout: deadlineMs,
  });
  // Built once, from scratch: never a header from the browser's request.
  const headers = {
    'API-Key': options.apiKey,
    'API-Secret': options.apiSecret,
    Accept: 'application/json',
    'User-Agent': 'catalogue-explorer',
  };
  const health: UpstreamHealth = {
    credentialsRejected: false,
    lastSuccessAt: null,
    lastFailureAt: null,
  };

  type Attempt =
    | { ok: true; body: Buffer }
    | { ok: false; failure: UpstreamFailure; retryable: boolean; retryAfterMs?: number };

  /** A thrown error: the deadline, the size cap, or the network (connection refused, reset…). */
  function networkFailure(
    error: unknown,
    signal: AbortSignal,
    status: number | undefined,
  ): Attempt {
    if (signal.aborted)
      return {
        ok: false,
        failure: { kind: 'timeout', upstreamStatus: undefined },
        retryable: false,
      };
    const code = (error as { code?: unknown }).code;
    if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') {
      return {
        ok: false,
        failure: {
          kind: 'bad_response',
          upstreamStatus: status ?? 200,
          reason: 'body over the size cap',
        },
        retryable: false,
      };
    }
    return {
      ok: false,
      failure: {
        kind: 'unreachable',
        upstreamStatus: undefined,
        reason: typeof code === 'string' ? code : 'network error',
      },
      retryable: true,
    };
  }

  async function attempt(lookup: Lookup, signal: AbortSignal): Promise<Attempt> {
    let response: Awaited<ReturnType<typeof pool.request>>;
    try {
      response = await pool.request({
        method: 'GET',
        path: upstreamPath(basePath, lookup),
        headers,
        signal,
      });
    } catch (error) {
      return networkFailure(error, signal, undefined);
    }

    const status = response.statusCode;
    let body: Buffer | null;
    try {
      body = await readBody(response.body as AsyncIterable<Buffer>, maxBodyBytes);
    } catch (error) {
      response.body.destroy();
      return networkFailure(error, signal, status);
    }
    if (body === null) {
      response.body.destroy();
      return {
        ok: false,
        failure: { kind: 'bad_response', upstreamStatus: status, reason: 'body over the size cap' },
        retryable: false,
      };
    }

    if (status === 200) {
      const problemWithPage = checkPage(lookup, body);
      if (problemWithPage !== null) {
        return {
          ok: false,
          failure: { kind: 'bad_response', upstreamStatus: 200, reason: problemWithPage },
          retryable: false,
        };
      }
      return { ok: true, body };
    }
    if (status === 400)
      return {
        ok: false,
        failure: { kind: 'bad_request', upstreamStatus: 400, ...readProblem(body) },
        retryable: false,
      };
    if (status === 404)
      return {
        ok: false,
        failure: { kind: 'not_found', upstreamStatus: 404, ...readProblem(body) },
        retryable: false,
      };
    if (status === 401 || status === 403) {
      return {
        ok: false,
        failure: { kind: 'credentials_rejected', upstreamStatus: status },
        retryable: false,
      };
    }
    if (status === 429) {
      const retryAfterSeconds =
        parseRetryAfter(response.headers['retry-after']) ?? DEFAULT_RETRY_AFTER_SECONDS;
      return {
        ok: false,
        failure: { kind: 'rate_limited', upstreamStatus: 429, retryAfterSeconds },
        retryable: false,
      };
    }
    if (status >= 300 && status < 400) {
      // Redirects are not followed: the credentials must go to the configured host only.
      return {
        ok: false,
        failure: { kind: 'bad_response', upstreamStatus: status, reason: 'redirect not followed' },
        retryable: false,
      };
    }
    const retryAfter = parseRetryAfter(response.headers['retry-after']);
    return {
      ok: false,
      failure: { kind: 'server_error', upstreamStatus: status },
      retryable: RETRYABLE_STATUSES.has(status),
      ...(retryAfter === undefined ? {} : { retryAfterMs: retryAfter * 1000 }),
    };
  }

  function record(lookup: Lookup, failure: UpstreamFailure, attempts: number) {
    health.lastFailureAt = Date.now();
    const fields = {
      endpoint: lookup.endpoint,
      upstreamStatus: failure.upstreamStatus,
      failure: failure.kind,
      attempts,
    };
    switch (failure.kind) {
      case 'credentials_rejected':
        // Issue #3: loudly. Every lookup fails until an operator fixes the credentials.
        health.credentialsRejected = true;
        logger.error(
          fields,
          'UPSTREAM REJECTED THE API CREDENTIALS: check CATALOGUE_API_KEY and CATALOGUE_API_SECRET',
        );
        break;
      case 'rate_limited':
        quota.pauseFor(failure.retryAfterSeconds);
        logger.warn(
          { ...fields, retryAfterSeconds: failure.retryAfterSeconds },
          'upstream rate limit: pausing upstream calls',
        );
        break;
      case 'bad_request':
      case 'not_found':
        // An ordinary answer about the caller's input, and proof that the credentials work.
        health.credentialsRejected = false;
        break;
      case 'quota_exhausted':
      case 'quota_paused':
        break;
      default:
        logger.warn(
          { ...fields, ...('reason' in failure ? { reason: failure.reason } : {}) },
          'upstream call failed',
        );
    }
  }

  return {
    async fetchPage(lookup) {
      const deadline = Date.now() + deadlineMs;
      const signal = AbortSignal.timeout(deadlineMs);
      let last: Attempt | null = null;
      let attempts = 0;
      for (let retry = 0; retry <= retries; retry++) {
        const permit = quota.tryAcquire();
        if (!permit.ok) {
          if (last !== null && !last.ok) break; // a retry the budget cannot afford: report the last failure
          const failure: UpstreamFailure = {
            kind: permit.reason === 'quota_exhausted' ? 'quota_exhausted' : 'quota_paused',
            upstreamStatus: undefined,
            retryAfterSeconds: permit.retryAfterSeconds,
          };
          record(lookup, failure, attempts);
          return { ok: false, failure, attempts };
        }
        attempts++;
        last = await attempt(lookup, signal);
        if (last.ok) {
          health.credentialsRejected = false;
          health.lastSuccessAt = Date.now();
          return { ok: true, upstreamStatus: 200, body: last.body, attempts };
        }
        if (!last.retryable || retry === retries) break;
        const backoff = backoffMs * 2 ** retry * (0.5 + random());
        const delay = Math.max(backoff, last.retryAfterMs ?? 0);
        if (Date.now() + delay >= deadline) break; // no time left for another try
        logger.debug(
          {
            endpoint: lookup.endpoint,
            upstreamStatus: last.failure.upstreamStatus,
            failure: last.failure.kind,
            delayMs: Math.round(delay),
          },
          'retrying upstream call',
        );
        try {
          await sleep(delay, undefined, { signal });
        } catch {
          last = {
            ok: false,
            failure: { kind: 'timeout', upstreamStatus: undefined },
            retryable: false,
          };
          break;
        }
      }
      const failure = (last as Extract<Attempt, { ok: false }>).failure;
      record(lookup, failure, attempts);
      return { ok: false, failure, attempts };
    },
    health: () => ({ ...health }),
    close: () => pool.close(),
  };
}
