import { backoffMs } from '../../shared/backoff.ts';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import {
  endpointNames,
  endpoints,
  type EndpointName,
  type EndpointPage,
} from '../../shared/endpoints.ts';
import { compileCheck, type Check } from '../../shared/page-check.ts';
import { prepaid } from '../quota/prepaid-calls.ts';
import type { QuotaGuard } from '../quota/quota-guard.ts';
import {
  bodyTooLarge,
  failureOfError,
  failureOfStatus,
  type ClassifiedFailure,
  type UpstreamFailure,
} from './failure.ts';
import type { Lookup } from './lookup.ts';

// Calls the lookup service (spec §4, credentials per spec §2.1): kept-alive connections through
// an undici Pool (faster than global fetch); one deadline for the whole call, retries included;
// jittered backoff retries for network errors and 502/503/504 only (failure.ts says which); the
// quota guard asked before every attempt; no redirects, capped bodies, and a 200 checked against
// the shared schema before anyone sees it. The request is built from scratch: nothing from the
// browser's is forwarded, and the credentials appear only in its headers, never in a log line.
// "Spec §N" in the server's comments is a section of docs/catalogue-api.md.

/** A page of any endpoint, as the shared schemas parse it. */
export type AnyPage = EndpointPage<EndpointName>;

export type UpstreamResult =
  | {
      ok: true;
      upstreamStatus: 200;
      body: Buffer;
      /**
       * The body as parsed for the schema check (unknown fields included), so that whoever
       * needs the data of a fresh page (the channel-title index) does not parse it again.
       */
      page: AnyPage;
      attempts: number;
    }
  | { ok: false; failure: UpstreamFailure; attempts: number };

export interface UpstreamHealth {
  /** The last answer about the credentials was a 401/403: /readyz reports itself degraded. */
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
  /** First backoff; later ones double, each jittered by up to half either way. */
  backoffMs?: number;
  maxBodyBytes?: number;
  connections?: number;
  random?: () => number;
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

/**
 * Each endpoint's page schema compiled into a yes-or-no check (shared/page-check.ts): about
 * half zod's time on a 100-item page, and no parsed copy of the page to collect afterwards.
 */
const pageChecks = Object.fromEntries(
  endpointNames.map((name) => [name, compileCheck(endpoints[name].pageSchema)]),
) as Record<EndpointName, Check>;

/** Parses and checks a 200 body: JSON, the endpoint's page schema, `info` on a first playlist page. */
export function parsePage(
  lookup: Lookup,
  body: Buffer,
): { ok: true; page: AnyPage } | { ok: false; reason: string } {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return { ok: false, reason: 'the body is not JSON' };
  }
  // zod is asked only about a page the compiled check refuses, to say what is wrong with it
  // (and, should the two ever disagree, zod decides).
  if (!pageChecks[lookup.endpoint](json)) {
    const parsed = endpoints[lookup.endpoint].pageSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const reason = `the page does not match the spec (${issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'schema'})`;
      return { ok: false, reason };
    }
  }
  const page = json as AnyPage;
  // Spec §4.1: the first page (no continuation) carries `info`; the app needs it for the header.
  if (
    lookup.endpoint === 'playlist' &&
    lookup.continuation === undefined &&
    !('info' in page && page.info)
  ) {
    return { ok: false, reason: 'the first playlist page has no `info`' };
  }
  return { ok: true, page };
}

export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  const {
    quota,
    logger,
    deadlineMs = 10_000,
    retries = 2,
    backoffMs: firstBackoffMs = 100,
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

  type Attempt = { ok: true; body: Buffer; page: AnyPage } | ({ ok: false } & ClassifiedFailure);
  const failed = (classified: ClassifiedFailure): Attempt => ({ ok: false, ...classified });

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
      return failed(failureOfError(error, signal.aborted, undefined));
    }

    const status = response.statusCode;
    let body: Buffer | null;
    try {
      body = await readBody(response.body as AsyncIterable<Buffer>, maxBodyBytes);
    } catch (error) {
      response.body.destroy();
      return failed(failureOfError(error, signal.aborted, status));
    }
    if (body === null) {
      response.body.destroy();
      return failed(bodyTooLarge(status));
    }
    if (status !== 200)
      return failed(failureOfStatus(status, body, response.headers['retry-after']));

    const checked = parsePage(lookup, body);
    if (!checked.ok) {
      return failed({
        failure: { kind: 'bad_response', upstreamStatus: 200, reason: checked.reason },
        retryable: false,
      });
    }
    return { ok: true, body, page: checked.page };
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
        // Loudly: every lookup fails until an operator fixes the credentials.
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
          { ...fields, reason: 'reason' in failure ? failure.reason : undefined },
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
        // A walk's page spends a lookup the walk reserved; anything else asks the guard.
        const permit = prepaid()?.take() ? { ok: true as const } : await quota.tryAcquire();
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
          return { ok: true, upstreamStatus: 200, body: last.body, page: last.page, attempts };
        }
        if (!last.retryable || retry === retries) break;
        const wait = backoffMs(
          retry + 1,
          { firstMs: firstBackoffMs, maxMs: Infinity, jitter: 0.5 },
          random,
        );
        const delay = Math.max(wait, last.retryAfterMs ?? 0);
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
          last = failed({
            failure: { kind: 'timeout', upstreamStatus: undefined },
            retryable: false,
          });
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
