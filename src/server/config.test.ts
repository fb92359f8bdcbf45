import { describe, expect, it } from 'vitest';
import { ConfigError, describeConfig, readServerConfig } from './config.ts';

describe('configuration: parsed and checked once', () => {
  it('defaults to the embedded catalogue on port 8080', () => {
    const config = readServerConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      staticRoot: 'dist',
      quotaBudget: 10_000,
      quotaWindowSeconds: 3600,
      jobReaderReserve: 0.2,
      clientShareOfWindow: 0.1,
      clientRateLimit: { burst: 60, perSecond: 2 },
      upstream: { kind: 'embedded', port: 0, faultControl: false, faults: {} },
    });
  });

  it('an empty CATALOGUE_BASE_URL also means embedded; faults are parsed', () => {
    const config = readServerConfig({
      CATALOGUE_BASE_URL: '',
      CATALOGUE_FAULTS: 'latency=5,500=0.1',
      CATALOGUE_FAULT_CONTROL: 'true',
      EMBEDDED_CATALOGUE_PORT: '9123',
    });
    expect(config.upstream).toEqual({
      kind: 'embedded',
      port: 9123,
      dataDir: 'data',
      faults: { latencyMs: 5, error500Rate: 0.1 },
      faultControl: true,
    });
  });

  it('a remote upstream needs a key and a secret, and says so', () => {
    expect(() => readServerConfig({ CATALOGUE_BASE_URL: 'https://api.example.com' })).toThrow(
      /CATALOGUE_API_KEY and CATALOGUE_API_SECRET are not/,
    );
    expect(() =>
      readServerConfig({ CATALOGUE_BASE_URL: 'https://api.example.com', CATALOGUE_API_KEY: 'k' }),
    ).toThrow(/CATALOGUE_API_SECRET is not/);
    const config = readServerConfig({
      CATALOGUE_BASE_URL: 'https://api.example.com/v/',
      CATALOGUE_API_KEY: 'k',
      CATALOGUE_API_SECRET: 's',
    });
    expect(config.upstream).toEqual({
      kind: 'remote',
      baseUrl: 'https://api.example.com/v',
      apiKey: 'k',
      apiSecret: 's',
    });
  });

  it('PUBLIC_URL: an http(s) origin, reduced to its origin; unset or empty means none', () => {
    expect(readServerConfig({}).publicUrl).toBeUndefined();
    expect(readServerConfig({ PUBLIC_URL: '' }).publicUrl).toBeUndefined();
    expect(readServerConfig({ PUBLIC_URL: ' https://Explorer.example.com/ ' }).publicUrl).toBe(
      'https://explorer.example.com',
    );
    expect(readServerConfig({ PUBLIC_URL: 'http://localhost:8080' }).publicUrl).toBe(
      'http://localhost:8080',
    );
    expect(readServerConfig({ PUBLIC_URL: 'https://x.example:443' }).publicUrl).toBe(
      'https://x.example',
    );
  });

  it.each([
    [{ PUBLIC_URL: 'explorer.example.com' }, /PUBLIC_URL is not a URL/],
    [{ PUBLIC_URL: 'ftp://explorer.example.com' }, /PUBLIC_URL must start with http/],
    [{ PUBLIC_URL: 'https://u:p@explorer.example.com' }, /PUBLIC_URL must not carry credentials/],
    [{ PUBLIC_URL: 'https://explorer.example.com/app' }, /PUBLIC_URL must be an origin only/],
    [{ PUBLIC_URL: 'https://explorer.example.com/?a=1' }, /PUBLIC_URL must be an origin only/],
    [{ PUBLIC_URL: 'https://explorer.example.com/#top' }, /PUBLIC_URL must be an origin only/],
    [{ PORT: 'eighty' }, /PORT/],
    [{ CATALOGUE_BASE_URL: 'ftp://x', CATALOGUE_API_KEY: 'k', CATALOGUE_API_SECRET: 's' }, /http/],
    [
      { CATALOGUE_BASE_URL: 'https://u:p@x', CATALOGUE_API_KEY: 'k', CATALOGUE_API_SECRET: 's' },
      /credentials/,
    ],
    [{ CATALOGUE_FAULTS: 'bogus=1' }, /CATALOGUE_FAULTS/],
    [{ UPSTREAM_RETRIES: '5' }, /UPSTREAM_RETRIES/],
  ])('refuses %j', (env, message) => {
    expect(() => readServerConfig(env)).toThrow(message);
  });

  it('describes itself without the credentials', () => {
    const config = readServerConfig({
      CATALOGUE_BASE_URL: 'https://api.example.com',
      CATALOGUE_API_KEY: 'key-123',
      CATALOGUE_API_SECRET: 'secret-456',
      PUBLIC_URL: 'https://explorer.example.com',
    });
    const text = JSON.stringify(describeConfig(config));
    expect(text).toContain('api.example.com');
    expect(describeConfig(config).publicUrl).toBe('https://explorer.example.com');
    expect(text).not.toContain('key-123');
    expect(text).not.toContain('secret-456');
  });
});

describe('configuration: the HTTP edge', () => {
  it('has timeouts of its own by default, and a shutdown deadline', () => {
    const config = readServerConfig({});
    expect(config.http).toEqual({
      headersMs: 10_000,
      requestMs: 20_000,
      keepAliveMs: 5_000,
      idleMs: 30_000,
    });
    expect(config.shutdownDeadlineMs).toBe(10_000);
    expect(describeConfig(config)).toMatchObject({ http: config.http, shutdownDeadlineMs: 10_000 });
  });

  it('reads each of them', () => {
    const config = readServerConfig({
      HTTP_HEADERS_TIMEOUT_MS: '1000',
      HTTP_REQUEST_TIMEOUT_MS: '2000',
      HTTP_KEEP_ALIVE_TIMEOUT_MS: '3000',
      HTTP_IDLE_TIMEOUT_MS: '15000',
      SHUTDOWN_DEADLINE_MS: '4000',
    });
    expect(config.http).toEqual({
      headersMs: 1000,
      requestMs: 2000,
      keepAliveMs: 3000,
      idleMs: 15_000,
    });
    expect(config.shutdownDeadlineMs).toBe(4000);
  });

  it.each([
    [
      { HTTP_HEADERS_TIMEOUT_MS: '30000', HTTP_REQUEST_TIMEOUT_MS: '20000' },
      /HTTP_HEADERS_TIMEOUT_MS must not be longer than HTTP_REQUEST_TIMEOUT_MS/,
    ],
    [
      { HTTP_IDLE_TIMEOUT_MS: '10000', UPSTREAM_TIMEOUT_MS: '10000' },
      /HTTP_IDLE_TIMEOUT_MS must be longer than UPSTREAM_TIMEOUT_MS/,
    ],
    [{ HTTP_REQUEST_TIMEOUT_MS: '0' }, /HTTP_REQUEST_TIMEOUT_MS/],
    [{ HTTP_KEEP_ALIVE_TIMEOUT_MS: 'forever' }, /HTTP_KEEP_ALIVE_TIMEOUT_MS/],
    [{ SHUTDOWN_DEADLINE_MS: '100' }, /SHUTDOWN_DEADLINE_MS/],
  ])('refuses %j', (env, message) => {
    expect(() => readServerConfig(env)).toThrow(message);
  });
});

describe('configuration: metrics', () => {
  it('are off by default', () => {
    expect(readServerConfig({}).metrics).toEqual({ token: undefined, port: 0, host: '127.0.0.1' });
  });

  it('take a token, never logged, and a port of their own, on loopback unless told', () => {
    const token = 'a-long-enough-metrics-token';
    const config = readServerConfig({ METRICS_TOKEN: token, METRICS_PORT: '9464', HOST: '::' });
    expect(config.metrics).toEqual({ token, port: 9464, host: '127.0.0.1' });
    expect(JSON.stringify(describeConfig(config))).not.toContain(token);
    const shared = readServerConfig({ METRICS_PORT: '9464', METRICS_HOST: '0.0.0.0' });
    expect(shared.metrics.host).toBe('0.0.0.0');
  });

  it.each([
    [{ METRICS_TOKEN: 'short' }, /METRICS_TOKEN/],
    [{ METRICS_PORT: '8080' }, /METRICS_PORT/],
  ])('refuses %j', (env, message) => {
    expect(() => readServerConfig(env)).toThrow(message);
  });
});

describe('configuration: Redis', () => {
  it('is off by default, and on with a redis:// or rediss:// URL', () => {
    expect(readServerConfig({}).redis).toBeNull();
    const config = readServerConfig({
      REDIS_URL: 'rediss://explorer:s3cret-pass@redis.internal:6380/2',
      EXPLORER_REPLICAS: '3',
    });
    expect(config.redis).toEqual({
      url: 'rediss://explorer:s3cret-pass@redis.internal:6380/2',
      replicas: 3,
      outageShare: 0.1,
      commandTimeoutMs: 250,
      keyPrefix: 'explorer:',
    });
    expect(JSON.stringify(describeConfig(config))).not.toContain('s3cret-pass');
  });

  it('holds back a tenth of the hour for an outage unless told, never more than half', () => {
    const redis = (share: string) =>
      readServerConfig({ REDIS_URL: 'redis://127.0.0.1:6379', REDIS_OUTAGE_SHARE: share }).redis;
    expect(redis('0')?.outageShare).toBe(0);
    expect(redis('0.25')?.outageShare).toBe(0.25);
    expect(() => redis('0.6')).toThrow(/REDIS_OUTAGE_SHARE/);
    expect(() => redis('-1')).toThrow(/REDIS_OUTAGE_SHARE/);
  });

  it('refuses other schemes', () => {
    expect(() => readServerConfig({ REDIS_URL: 'http://redis:6379' })).toThrow(
      /redis:\/\/ or rediss:\/\//,
    );
  });
});

describe('configuration: the quota, its window, and the readers’ reserve', () => {
  const quotaOf = (env: Record<string, string>) => {
    const config = readServerConfig(env);
    return [config.quotaBudget, config.quotaWindowSeconds];
  };

  it('CATALOGUE_QUOTA per CATALOGUE_QUOTA_WINDOW, an hour unless said', () => {
    expect(quotaOf({ CATALOGUE_QUOTA: '500' })).toEqual([500, 3600]);
    expect(quotaOf({ CATALOGUE_QUOTA: '500000', CATALOGUE_QUOTA_WINDOW: '24h' })).toEqual([
      500_000, 86_400,
    ]);
    expect(quotaOf({ CATALOGUE_QUOTA: '50', CATALOGUE_QUOTA_WINDOW: '90s' })).toEqual([50, 90]);
    expect(quotaOf({ CATALOGUE_QUOTA_WINDOW: '10' })).toEqual([10_000, 10]);
    expect(quotaOf({ CATALOGUE_QUOTA_WINDOW: '1d' })).toEqual([10_000, 86_400]);
    // Empty, as a .env line with no value, is unset.
    expect(quotaOf({ CATALOGUE_QUOTA: '', CATALOGUE_QUOTA_WINDOW: '' })).toEqual([10_000, 3600]);
  });

  it('refuses nonsense budgets and windows', () => {
    for (const window of ['soon', '1.5h', '0', '0s', '8d', '-1h', '1h30m'])
      expect(() => readServerConfig({ CATALOGUE_QUOTA_WINDOW: window })).toThrow(
        /^CATALOGUE_QUOTA_WINDOW: /,
      );
    expect(() => readServerConfig({ CATALOGUE_QUOTA_WINDOW: '8d' })).toThrow(ConfigError);
    expect(() => readServerConfig({ CATALOGUE_QUOTA: '-1' })).toThrow(/CATALOGUE_QUOTA/);
    expect(() => readServerConfig({ CATALOGUE_QUOTA: 'many' })).toThrow(/CATALOGUE_QUOTA/);
  });

  it('JOB_READER_RESERVE: a fifth by default, from 0 to 0.9', () => {
    expect(readServerConfig({ JOB_READER_RESERVE: '0' }).jobReaderReserve).toBe(0);
    expect(readServerConfig({ JOB_READER_RESERVE: '0.5' }).jobReaderReserve).toBe(0.5);
    for (const reserve of ['0.95', '-0.1', 'half'])
      expect(() => readServerConfig({ JOB_READER_RESERVE: reserve })).toThrow(/JOB_READER_RESERVE/);
  });

  it('CLIENT_SHARE_OF_WINDOW: a tenth by default, more than 0 and at most 1', () => {
    expect(readServerConfig({}).clientShareOfWindow).toBe(0.1);
    expect(readServerConfig({ CLIENT_SHARE_OF_WINDOW: '0.3' }).clientShareOfWindow).toBe(0.3);
    expect(() => readServerConfig({ CLIENT_SHARE_OF_WINDOW: '0' })).toThrow(
      /CLIENT_SHARE_OF_WINDOW/,
    );
  });

  it('the start-up line says the quota and its window', () => {
    const config = readServerConfig({ CATALOGUE_QUOTA: '100000', CATALOGUE_QUOTA_WINDOW: '86400' });
    expect(describeConfig(config).quota).toEqual({
      budget: 100_000,
      window: '24h',
      windowSeconds: 86_400,
      jobReaderReserve: 0.2,
    });
  });
});

describe('configuration: chain warming', () => {
  it('spends a tenth of the hour by default, on four lists at once', () => {
    expect(readServerConfig({}).chainWarm).toEqual({
      budget: 1000,
      lists: 4,
      idleMs: 60_000,
    });
  });

  it('is its share of the quota, at least one call; off at 0 or with no quota', () => {
    const read = (env: Record<string, string>) => readServerConfig(env).chainWarm;
    expect(read({ CHAIN_WARM_SHARE: '0.25', CATALOGUE_QUOTA: '400' })).toMatchObject({
      budget: 100,
    });
    expect(read({ CHAIN_WARM_SHARE: '0.01', CATALOGUE_QUOTA: '10' })).toMatchObject({
      budget: 1,
    });
    // A share of the window, whatever its length.
    expect(
      read({ CHAIN_WARM_SHARE: '0.1', CATALOGUE_QUOTA: '50000', CATALOGUE_QUOTA_WINDOW: '24h' }),
    ).toMatchObject({ budget: 5000 });
    expect(read({ CATALOGUE_QUOTA: '0' })).toBeNull();
    expect(read({ CHAIN_WARM_SHARE: '0' })).toBeNull();
    expect(read({ CATALOGUE_QUOTA: '0' })).toBeNull();
    expect(read({ CHAIN_WARM_LISTS: '2', CHAIN_WARM_IDLE_MS: '5000' })).toMatchObject({
      lists: 2,
      idleMs: 5000,
    });
  });

  it('refuses a share above half the hour, and numbers out of range', () => {
    for (const env of [
      { CHAIN_WARM_SHARE: '0.6' },
      { CHAIN_WARM_SHARE: '-0.1' },
      { CHAIN_WARM_SHARE: 'some' },
      { CHAIN_WARM_LISTS: '0' },
      { CHAIN_WARM_IDLE_MS: '10' },
    ]) {
      expect(() => readServerConfig(env), JSON.stringify(env)).toThrow(ConfigError);
    }
  });
});
