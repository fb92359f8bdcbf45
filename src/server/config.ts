import { existsSync } from 'node:fs';
import { z } from 'zod';
import { parseFaultSpec, type FaultSettings } from '../catalogue/fault-settings.ts';
import {
  DEFAULT_JOB_READER_RESERVE,
  formatWindow,
  HOUR_SECONDS,
  parseWindowDuration,
} from './quota/quota-window.ts';

// The explorer server's configuration, parsed and checked once at start-up. This is the only server
// module that reads the environment (eslint.config.js); everything else receives the parsed object.
// Secrets live here and in the upstream client, never in a log line: see `describeConfig`.

const flag = z
  .enum(['true', 'false', '1', '0', ''])
  .default('false')
  .transform((v) => v === 'true' || v === '1');

/** Unset and empty are the same: `CATALOGUE_BASE_URL=` in a .env file means "embedded". */
const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const int = (min: number, max: number, fallback: number) =>
  z.coerce.number().int().min(min).max(max).default(fallback);

/** A number when set; unset or empty stays undefined, and the caller's default applies. */
const optionalNumber = (number: z.ZodNumber) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.coerce.number().pipe(number).optional(),
  );

const schema = z.object({
  PORT: int(0, 65535, 8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  STATIC_ROOT: z.string().min(1).default('dist'),
  TRUST_PROXY: flag,
  PUBLIC_URL: optionalText,

  CATALOGUE_BASE_URL: optionalText,
  CATALOGUE_API_KEY: optionalText,
  CATALOGUE_API_SECRET: optionalText,

  CATALOGUE_DATA_DIR: z.string().min(1).default('data'),
  // Where a server without Redis keeps the window's spending across restarts (quota-journal.ts);
  // empty: in memory only.
  STATE_DIR: z
    .string()
    .default('data')
    .transform((v) => (v.trim() === '' ? null : v.trim())),
  CATALOGUE_FAULTS: z.string().default(''),
  CATALOGUE_FAULT_CONTROL: flag,
  EMBEDDED_CATALOGUE_PORT: int(0, 65535, 0),

  // Lookups per window (quota/quota-window.ts): the real service counts per hour (spec §2.3),
  // others per day, tests and benches per seconds.
  CATALOGUE_QUOTA: optionalNumber(z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)),
  CATALOGUE_QUOTA_WINDOW: optionalText,
  // The share of the window's budget background jobs leave to people reading pages.
  JOB_READER_RESERVE: z.coerce.number().min(0).max(0.9).default(DEFAULT_JOB_READER_RESERVE),
  CLIENT_RATE_LIMIT_BURST: int(1, Number.MAX_SAFE_INTEGER, 60),
  CLIENT_RATE_LIMIT_PER_SECOND: z.coerce.number().positive().default(2),
  // The most of the window's quota one address may spend, reading or walking
  // (quota/client-shares.ts).
  CLIENT_SHARE_OF_WINDOW: optionalNumber(z.number().gt(0).max(1)),
  // Whole-list walks running at once in this process; more wait in line (whole-list/list-walk.ts).
  WALKS_AT_ONCE: int(1, 10_000, 8),
  JOBS_AT_ONCE: int(1, 1_000, 2),
  JOB_RESULT_TTL: optionalText,
  // How long a replica's hold on a job it runs lasts unless renewed: with Redis, a job whose
  // replica died is taken over by another this long after (jobs/job-service.ts).
  JOB_LEASE: optionalText,
  // Per client too, the server's renders of the app's pages that are not kept already
  // (routes/app-pages.ts): CPU, not quota, so an allowance of their own, kept by each process.
  RENDER_RATE_LIMIT_BURST: int(1, Number.MAX_SAFE_INTEGER, 30),
  RENDER_RATE_LIMIT_PER_SECOND: z.coerce.number().positive().default(1),
  // How long a person's navigation waits for a list's first page before the view goes out
  // loading (routes/app-pages.ts); link previews, crawlers and monitors wait up to a second.
  FIRST_PAINT_WAIT_MS: int(0, 1_000, 50),
  CACHE_MAX_BYTES: int(0, Number.MAX_SAFE_INTEGER, 64 * 1024 * 1024),
  // Without Redis, the pages fetched are also kept in STATE_DIR, up to this many bytes (0: off).
  DISK_CACHE_MAX_BYTES: int(0, Number.MAX_SAFE_INTEGER, 256 * 1024 * 1024),
  UPSTREAM_TIMEOUT_MS: int(100, 120_000, 10_000),
  UPSTREAM_RETRIES: int(0, 2, 2),
  // When the upstream fails (page-source.ts): a failing page's back-off, the breaker over all
  // pages, the stale copy's soft deadline, and how many calls may be out at once.
  UPSTREAM_BACKOFF_MS: int(100, 600_000, 1_000),
  UPSTREAM_BACKOFF_MAX_MS: int(100, 3_600_000, 30_000),
  BREAKER_THRESHOLD: int(1, 10_000, 5),
  BREAKER_OPEN_MS: int(100, 600_000, 5_000),
  STALE_AFTER_MS: int(0, 120_000, 1_000),
  UPSTREAM_MAX_IN_FLIGHT: int(1, 10_000, 32),
  UPSTREAM_MAX_QUEUED: int(0, 100_000, 512),

  // Warming a playlist's continuation chain behind a person who opened it (warming/): the
  // fraction of the window's quota warming may spend (0: off), how many lists are warmed at
  // once, and how long a list goes unread before its warming stops.
  CHAIN_WARM_SHARE: z.coerce.number().min(0).max(0.5).default(0.1),
  CHAIN_WARM_LISTS: int(1, 100, 4),
  CHAIN_WARM_IDLE_MS: int(1_000, 3_600_000, 60_000),

  // The HTTP edge (http-server.ts): how long a client may take, and how long a stop may take.
  HTTP_HEADERS_TIMEOUT_MS: int(100, 300_000, 10_000),
  HTTP_REQUEST_TIMEOUT_MS: int(100, 300_000, 20_000),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: int(100, 300_000, 5_000),
  HTTP_IDLE_TIMEOUT_MS: int(100, 300_000, 30_000),
  SHUTDOWN_DEADLINE_MS: int(500, 600_000, 10_000),

  // /metrics (metrics.ts): off unless a token is set (served on PORT to bearers of it) or a
  // port (served there to anyone who can reach it: keep that port private).
  METRICS_TOKEN: optionalText,
  METRICS_PORT: int(0, 65535, 0),
  // Where that port listens: this machine alone unless told otherwise (a scraper in another
  // container or host is named here, e.g. 0.0.0.0 on a private network).
  METRICS_HOST: z.string().trim().min(1).default('127.0.0.1'),

  // Replicas sharing one quota, cache and merging through Redis (shared-state/): unset, each
  // process keeps everything in memory as before.
  REDIS_URL: optionalText,
  // How many replicas run: they divide the outage share between them.
  EXPLORER_REPLICAS: int(1, 1000, 1),
  // The part of the window the replicas hold back together, as leases counted in Redis ahead of
  // time, to spend while Redis cannot be asked (each its own lease, so no outage overspends).
  REDIS_OUTAGE_SHARE: z.coerce.number().min(0).max(0.5).default(0.1),
  // The longest any one Redis command may take before the replica goes on without it.
  REDIS_COMMAND_TIMEOUT_MS: int(10, 10_000, 250),
  // Prefix of every key, so several deployments (or tests) can share one Redis.
  REDIS_KEY_PREFIX: z.string().min(1).max(100).default('explorer:'),
});

export interface RemoteUpstreamConfig {
  kind: 'remote';
  baseUrl: string;
  apiKey: string;
  apiSecret: string;
}

export interface EmbeddedUpstreamConfig {
  kind: 'embedded';
  port: number;
  dataDir: string;
  faults: Partial<FaultSettings>;
  faultControl: boolean;
}

/** How long a client may take over each part of an exchange (http-server.ts). */
export interface HttpTimeouts {
  /** From a request's first byte to the end of its headers. */
  headersMs: number;
  /** From a request's first byte to the end of its body. */
  requestMs: number;
  /** How long a connection may wait, idle, for its next request (advertised in Keep-Alive). */
  keepAliveMs: number;
  /** How long a socket may go without any traffic either way, e.g. a client that stops reading. */
  idleMs: number;
}

export interface ServerConfig {
  port: number;
  host: string;
  logLevel: z.infer<typeof schema>['LOG_LEVEL'];
  staticRoot: string;
  trustProxy: boolean;
  /** The origin of absolute URLs in pages (link previews); unset: each request's own host. */
  publicUrl: string | undefined;
  upstream: RemoteUpstreamConfig | EmbeddedUpstreamConfig;
  /** Upstream calls allowed per window (CATALOGUE_QUOTA). */
  quotaBudget: number;
  /** The window's length in seconds (CATALOGUE_QUOTA_WINDOW; 3600 unless set). */
  quotaWindowSeconds: number;
  /** The share of the window's budget jobs leave to readers (JOB_READER_RESERVE). */
  jobReaderReserve: number;
  /** The directory of the state file (without Redis); null: the window, pages and jobs in memory. */
  stateDir: string | null;
  clientRateLimit: { burst: number; perSecond: number };
  /** The part of the window's quota one client may spend (quota/client-shares.ts). */
  clientShareOfWindow: number;
  /** Jobs that run at once in this process; more wait their turn (jobs/). */
  jobsAtOnce: number;
  /** How long a finished job's result is kept, in seconds (JOB_RESULT_TTL; a day unless set). */
  jobResultTtlSeconds: number;
  /** How long a runner's lease on a job lasts unless renewed, in seconds (JOB_LEASE). */
  jobLeaseSeconds: number;
  /** Whole-list walks at once in this process; more wait in line. */
  walksAtOnce: number;
  /** Each client's allowance of renders not kept already (routes/app-pages.ts). */
  renderRateLimit: { burst: number; perSecond: number };
  /** How long a person's navigation waits for a list's first page (routes/app-pages.ts). */
  firstPaintWaitMs: number;
  cacheMaxBytes: number;
  /** The pages kept in STATE_DIR (without Redis), in bytes; 0: none. */
  diskCacheMaxBytes: number;
  upstreamTimeoutMs: number;
  upstreamRetries: number;
  /** How failures back off (page-source.ts, failure-backoff.ts, upstream/breaker.ts). */
  failures: {
    backoffMs: number;
    backoffMaxMs: number;
    breakerThreshold: number;
    breakerOpenMs: number;
    staleAfterMs: number;
    maxInFlight: number;
    maxQueued: number;
  };
  http: HttpTimeouts;
  /** Warming chains behind readers (warming/chain-warmer.ts); null when off. */
  chainWarm: ChainWarmConfig | null;
  /** After SIGTERM, the process exits within this long, whatever is still in flight. */
  shutdownDeadlineMs: number;
  /** Who may scrape /metrics: bearers of `token` on `port`, anyone on `metricsPort` (0: none). */
  metrics: { token: string | undefined; port: number; host: string };
  /** Shared state through Redis (shared-state/), or null: everything in this process's memory. */
  redis: RedisConfig | null;
}

export interface ChainWarmConfig {
  /** Upstream calls warming may spend per sliding window: its share of the quota, at least 1. */
  budget: number;
  /** Lists warmed at once. */
  lists: number;
  /** A list nobody has read for this long stops being warmed. */
  idleMs: number;
}

export interface RedisConfig {
  /** redis:// or rediss://, with user and password when the server wants them. */
  url: string;
  /** Replicas in the deployment: they divide the outage share. */
  replicas: number;
  /** The part of the window the replicas' leases hold back for a Redis outage. */
  outageShare: number;
  commandTimeoutMs: number;
  keyPrefix: string;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Parses a base URL: http(s), no credentials, query or fragment; the trailing slash dropped. */
function parseBaseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`CATALOGUE_BASE_URL is not a URL: "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError('CATALOGUE_BASE_URL must start with http:// or https://');
  }
  if (url.username || url.password) {
    throw new ConfigError(
      'CATALOGUE_BASE_URL must not carry credentials; use CATALOGUE_API_KEY and CATALOGUE_API_SECRET',
    );
  }
  if (url.search || url.hash)
    throw new ConfigError('CATALOGUE_BASE_URL must not have a query or fragment');
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/**
 * Parses PUBLIC_URL, where the explorer is reached (e.g. https://explorer.example.com): an
 * http(s) origin, nothing after it but a slash, since the app's routes start at the root.
 */
function parsePublicUrl(text: string): string {
  const url = URL.parse(text);
  if (url === null) throw new ConfigError(`PUBLIC_URL is not a URL: "${text}"`);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new ConfigError('PUBLIC_URL must start with http:// or https://');
  if (url.username || url.password) throw new ConfigError('PUBLIC_URL must not carry credentials');
  if (url.pathname !== '/' || url.search || url.hash) {
    throw new ConfigError(
      `PUBLIC_URL must be an origin only (scheme, host and port), e.g. ${url.origin}`,
    );
  }
  return url.origin;
}

/** The HTTP edge's timeouts, checked against each other and against the upstream's deadline. */
function parseHttpTimeouts(e: z.infer<typeof schema>): HttpTimeouts {
  // node:http refuses a headers timeout longer than the request's.
  if (e.HTTP_HEADERS_TIMEOUT_MS > e.HTTP_REQUEST_TIMEOUT_MS) {
    throw new ConfigError(
      'HTTP_HEADERS_TIMEOUT_MS must not be longer than HTTP_REQUEST_TIMEOUT_MS (headers are part of the request)',
    );
  }
  // A socket says nothing while its lookup waits on the upstream: an idle timeout shorter than
  // the upstream's deadline would cut such a lookup off before its answer (or its 504) is sent.
  if (e.HTTP_IDLE_TIMEOUT_MS <= e.UPSTREAM_TIMEOUT_MS) {
    throw new ConfigError(
      'HTTP_IDLE_TIMEOUT_MS must be longer than UPSTREAM_TIMEOUT_MS, or slow lookups are cut off unanswered',
    );
  }
  return {
    headersMs: e.HTTP_HEADERS_TIMEOUT_MS,
    requestMs: e.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
    idleMs: e.HTTP_IDLE_TIMEOUT_MS,
  };
}

/** Parses an environment (by default this process's) into the server's configuration. */
export function readServerConfig(
  env: Record<string, string | undefined> = process.env,
): ServerConfig {
  const parsed = schema.safeParse(env);
  if (!parsed.success)
    throw new ConfigError(`Explorer configuration: ${z.prettifyError(parsed.error)}`);
  const e = parsed.data;
  const quota = parseQuota(e);

  let upstream: ServerConfig['upstream'];
  if (e.CATALOGUE_BASE_URL !== undefined) {
    // A base URL without a key and secret refuses to start, rather than sending every lookup
    // to a 401.
    const missing = [
      e.CATALOGUE_API_KEY === undefined ? 'CATALOGUE_API_KEY' : null,
      e.CATALOGUE_API_SECRET === undefined ? 'CATALOGUE_API_SECRET' : null,
    ].filter((name) => name !== null);
    if (missing.length > 0) {
      throw new ConfigError(
        `CATALOGUE_BASE_URL is set but ${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not. ` +
          'Set both (in the environment or .env), or unset CATALOGUE_BASE_URL to use the embedded demo catalogue.',
      );
    }
    upstream = {
      kind: 'remote',
      baseUrl: parseBaseUrl(e.CATALOGUE_BASE_URL),
      apiKey: e.CATALOGUE_API_KEY as string,
      apiSecret: e.CATALOGUE_API_SECRET as string,
    };
  } else {
    let faults: Partial<FaultSettings>;
    try {
      faults = parseFaultSpec(e.CATALOGUE_FAULTS);
    } catch (error) {
      throw new ConfigError((error as Error).message);
    }
    upstream = {
      kind: 'embedded',
      port: e.EMBEDDED_CATALOGUE_PORT,
      dataDir: e.CATALOGUE_DATA_DIR,
      faults,
      faultControl: e.CATALOGUE_FAULT_CONTROL,
    };
  }

  return {
    port: e.PORT,
    host: e.HOST,
    logLevel: e.LOG_LEVEL,
    staticRoot: e.STATIC_ROOT,
    trustProxy: e.TRUST_PROXY,
    publicUrl: e.PUBLIC_URL === undefined ? undefined : parsePublicUrl(e.PUBLIC_URL),
    upstream,
    ...quota,
    jobReaderReserve: e.JOB_READER_RESERVE,
    stateDir: e.STATE_DIR,
    clientRateLimit: {
      burst: e.CLIENT_RATE_LIMIT_BURST,
      perSecond: e.CLIENT_RATE_LIMIT_PER_SECOND,
    },
    clientShareOfWindow: parseClientShare(e),
    walksAtOnce: e.WALKS_AT_ONCE,
    jobsAtOnce: e.JOBS_AT_ONCE,
    jobResultTtlSeconds: parseResultTtl(e),
    jobLeaseSeconds: parseLease(e),
    renderRateLimit: {
      burst: e.RENDER_RATE_LIMIT_BURST,
      perSecond: e.RENDER_RATE_LIMIT_PER_SECOND,
    },
    firstPaintWaitMs: e.FIRST_PAINT_WAIT_MS,
    cacheMaxBytes: e.CACHE_MAX_BYTES,
    diskCacheMaxBytes: e.DISK_CACHE_MAX_BYTES,
    upstreamTimeoutMs: e.UPSTREAM_TIMEOUT_MS,
    upstreamRetries: e.UPSTREAM_RETRIES,
    failures: {
      backoffMs: e.UPSTREAM_BACKOFF_MS,
      backoffMaxMs: Math.max(e.UPSTREAM_BACKOFF_MS, e.UPSTREAM_BACKOFF_MAX_MS),
      breakerThreshold: e.BREAKER_THRESHOLD,
      breakerOpenMs: e.BREAKER_OPEN_MS,
      staleAfterMs: e.STALE_AFTER_MS,
      maxInFlight: e.UPSTREAM_MAX_IN_FLIGHT,
      maxQueued: e.UPSTREAM_MAX_QUEUED,
    },
    http: parseHttpTimeouts(e),
    chainWarm: parseChainWarm(e, quota.quotaBudget),
    shutdownDeadlineMs: e.SHUTDOWN_DEADLINE_MS,
    metrics: parseMetrics(e),
    redis: parseRedis(e),
  };
}

/** The budget and its window, an hour unless told. */
function parseQuota(
  e: z.infer<typeof schema>,
): Pick<ServerConfig, 'quotaBudget' | 'quotaWindowSeconds'> {
  let windowSeconds = HOUR_SECONDS;
  if (e.CATALOGUE_QUOTA_WINDOW !== undefined) {
    const parsed = parseWindowDuration(e.CATALOGUE_QUOTA_WINDOW);
    if (typeof parsed === 'string')
      throw new ConfigError(`CATALOGUE_QUOTA_WINDOW: ${parsed} (from 1s to 7d)`);
    windowSeconds = parsed;
  }
  return { quotaBudget: e.CATALOGUE_QUOTA ?? 10_000, quotaWindowSeconds: windowSeconds };
}

/** JOB_RESULT_TTL, a duration as the window's is written (`24h`, `30m`, `7d`). */
function parseResultTtl(e: z.infer<typeof schema>): number {
  if (e.JOB_RESULT_TTL === undefined) return 24 * HOUR_SECONDS;
  const parsed = parseWindowDuration(e.JOB_RESULT_TTL);
  if (typeof parsed === 'string')
    throw new ConfigError(`JOB_RESULT_TTL: ${parsed} (from 1s to 7d)`);
  return parsed;
}

/** JOB_LEASE, a duration as the window's is written (`15s`, `1m`). */
function parseLease(e: z.infer<typeof schema>): number {
  if (e.JOB_LEASE === undefined) return 15;
  const parsed = parseWindowDuration(e.JOB_LEASE);
  if (typeof parsed === 'string' || parsed > 600)
    throw new ConfigError(
      `JOB_LEASE: ${typeof parsed === 'string' ? parsed : 'too long'} (from 1s to 10m)`,
    );
  return parsed;
}

/** CLIENT_SHARE_OF_WINDOW: a tenth unless told. */
function parseClientShare(e: z.infer<typeof schema>): number {
  return e.CLIENT_SHARE_OF_WINDOW ?? 0.1;
}

function parseChainWarm(e: z.infer<typeof schema>, quota: number): ChainWarmConfig | null {
  // A share of no quota is no warming; a share of a small quota is at least one call a window.
  if (e.CHAIN_WARM_SHARE === 0 || quota === 0) return null;
  return {
    budget: Math.max(1, Math.floor(e.CHAIN_WARM_SHARE * quota)),
    lists: e.CHAIN_WARM_LISTS,
    idleMs: e.CHAIN_WARM_IDLE_MS,
  };
}

function parseRedis(e: z.infer<typeof schema>): RedisConfig | null {
  if (e.REDIS_URL === undefined) return null;
  const url = URL.parse(e.REDIS_URL);
  if (url === null) throw new ConfigError('REDIS_URL is not a URL');
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:')
    throw new ConfigError('REDIS_URL must start with redis:// or rediss://');
  return {
    url: e.REDIS_URL,
    replicas: e.EXPLORER_REPLICAS,
    outageShare: e.REDIS_OUTAGE_SHARE,
    commandTimeoutMs: e.REDIS_COMMAND_TIMEOUT_MS,
    keyPrefix: e.REDIS_KEY_PREFIX,
  };
}

/** A Redis URL as it may be logged: the password left out. */
export function redactedRedisUrl(text: string): string {
  const url = URL.parse(text);
  if (url === null) return 'unparsable';
  if (url.password) url.password = '***';
  return url.toString();
}

function parseMetrics(e: z.infer<typeof schema>): ServerConfig['metrics'] {
  // A bearer token is all that stands between the public and the account's figures.
  if (e.METRICS_TOKEN !== undefined && e.METRICS_TOKEN.length < 16)
    throw new ConfigError('METRICS_TOKEN must be at least 16 characters');
  if (e.METRICS_PORT !== 0 && e.METRICS_PORT === e.PORT)
    throw new ConfigError('METRICS_PORT must differ from PORT (the public port)');
  return { token: e.METRICS_TOKEN, port: e.METRICS_PORT, host: e.METRICS_HOST };
}

/**
 * Loads `.env` (when present) into the environment, then parses it. Variables already set in
 * the environment win over the file (Node's `process.loadEnvFile` never overwrites).
 */
export function loadServerConfig(envFile = '.env'): ServerConfig {
  if (existsSync(envFile)) process.loadEnvFile(envFile);
  return readServerConfig(process.env);
}

/** For the entry points (`npm start`, `npm run dev`): a bad configuration ends the process, saying why. */
export function loadServerConfigOrExit(): ServerConfig {
  try {
    return loadServerConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    console.error(`catalogue-explorer: ${error.message}`);
    process.exit(1);
  }
}

/** The configuration as it may be logged: the credentials left out. */
export function describeConfig(config: ServerConfig): Record<string, unknown> {
  const upstream =
    config.upstream.kind === 'remote'
      ? { kind: 'remote', baseUrl: config.upstream.baseUrl }
      : {
          kind: 'embedded',
          port: config.upstream.port,
          dataDir: config.upstream.dataDir,
          faults: config.upstream.faults,
          faultControl: config.upstream.faultControl,
        };
  return {
    port: config.port,
    host: config.host,
    staticRoot: config.staticRoot,
    trustProxy: config.trustProxy,
    publicUrl: config.publicUrl,
    upstream,
    // The start-up line says the window as it was written (1h, 24h, 90s) beside its seconds.
    quota: {
      budget: config.quotaBudget,
      window: formatWindow(config.quotaWindowSeconds),
      windowSeconds: config.quotaWindowSeconds,
      jobReaderReserve: config.jobReaderReserve,
    },
    stateDir: config.stateDir,
    clientRateLimit: config.clientRateLimit,
    clientShareOfWindow: config.clientShareOfWindow,
    walksAtOnce: config.walksAtOnce,
    jobsAtOnce: config.jobsAtOnce,
    jobResultTtlSeconds: config.jobResultTtlSeconds,
    jobLeaseSeconds: config.jobLeaseSeconds,
    renderRateLimit: config.renderRateLimit,
    firstPaintWaitMs: config.firstPaintWaitMs,
    cacheMaxBytes: config.cacheMaxBytes,
    diskCacheMaxBytes: config.diskCacheMaxBytes,
    upstreamTimeoutMs: config.upstreamTimeoutMs,
    upstreamRetries: config.upstreamRetries,
    failures: config.failures,
    http: config.http,
    chainWarm: config.chainWarm,
    shutdownDeadlineMs: config.shutdownDeadlineMs,
    metrics: {
      token: config.metrics.token === undefined ? 'unset' : 'set',
      port: config.metrics.port,
      host: config.metrics.host,
    },
    redis:
      config.redis === null ? null : { ...config.redis, url: redactedRedisUrl(config.redis.url) },
  };
}
