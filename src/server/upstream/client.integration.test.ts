import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createQuotaGuard, type QuotaGuard } from '../quota/quota-guard.ts';
import {
  destroy,
  hang,
  json,
  playlistInfo,
  playlistItem,
  startTestUpstream,
  type TestUpstream,
} from '../../test-support/test-upstream.ts';
import { createUpstreamClient, type UpstreamClient } from './client.ts';
import { upstreamRetryAfter } from './failure.ts';
import type { Lookup } from './lookup.ts';

// The upstream client against a real, deliberately misbehaving HTTP server: what it sends,
// what it retries, and how each kind of failure is reported.

const API_KEY = 'test-key-3f9a';
const API_SECRET = 'test-secret-77c1';
const PLAYLIST = 'PLcatalogueDemoPlaylist0101items00';
const first: Lookup = { endpoint: 'playlist', id: PLAYLIST, continuation: undefined };

let upstream: TestUpstream;
let quota: QuotaGuard;
let client: UpstreamClient;
const logs: Array<{ level: string; obj: object; msg?: string }> = [];
const logger = {
  error: (obj: object, msg?: string) => logs.push({ level: 'error', obj, msg }),
  warn: (obj: object, msg?: string) => logs.push({ level: 'warn', obj, msg }),
  debug: (obj: object, msg?: string) => logs.push({ level: 'debug', obj, msg }),
};

function makeClient(options: Partial<Parameters<typeof createUpstreamClient>[0]> = {}) {
  return createUpstreamClient({
    baseUrl: upstream.url,
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    quota,
    logger,
    backoffMs: 1,
    deadlineMs: 2000,
    ...options,
  });
}

beforeEach(async () => {
  upstream = await startTestUpstream();
  quota = createQuotaGuard({ budgetPerHour: 1000 });
  logs.length = 0;
  client = makeClient();
});
afterEach(async () => {
  await client.close();
  await upstream.close();
});

describe('upstream client', () => {
  it('sends the allowlisted parameters with exact encoding and headers built from scratch', async () => {
    const continuation = 'Eg+/a=b%2F&c d';
    upstream.queue(json(200, { items: [playlistItem(101)], continuation: null }));
    const result = await client.fetchPage({
      endpoint: 'playlist',
      id: PLAYLIST,
      continuation: continuation.replace(' ', ''),
    });
    expect(result.ok).toBe(true);
    const [request] = upstream.requests;
    const url = new URL(request?.url ?? '', 'http://x');
    expect(url.pathname).toBe('/api/v1/playlist');
    expect([...url.searchParams.keys()]).toEqual(['id', 'continuation']);
    expect(url.searchParams.get('continuation')).toBe('Eg+/a=b%2F&cd');
    expect(request?.headers['api-key']).toBe(API_KEY);
    expect(request?.headers['api-secret']).toBe(API_SECRET);
    expect(request?.headers.cookie).toBeUndefined();
    expect(request?.headers.authorization).toBeUndefined();
  });

  it('keeps a base URL path prefix', async () => {
    const prefixed = makeClient({ baseUrl: `${upstream.url}/catalogue/` });
    await prefixed.fetchPage(first);
    await prefixed.close();
    expect(upstream.requests[0]?.url).toBe(`/catalogue/api/v1/playlist?id=${PLAYLIST}`);
  });

  it('retries 502/503/504 and network errors (at most twice), spending quota on each try', async () => {
    upstream.queue(json(503, {}), destroy);
    const result = await client.fetchPage(first);
    expect(result).toMatchObject({ ok: true, attempts: 3 });
    expect(upstream.hits()).toBe(3);
    expect(quota.stats().usedLastHour).toBe(3);
  });

  it('gives up after the retries with the last failure', async () => {
    upstream.queue(json(502, {}), json(504, {}), json(503, {}), json(200, 'never reached'));
    const result = await client.fetchPage(first);
    expect(result).toMatchObject({
      ok: false,
      attempts: 3,
      failure: { kind: 'server_error', upstreamStatus: 503 },
    });
    expect(upstream.hits()).toBe(3);
  });

  it.each([
    [500, 'server_error'],
    [400, 'bad_request'],
    [404, 'not_found'],
    [401, 'credentials_rejected'],
    [403, 'credentials_rejected'],
    [429, 'rate_limited'],
    [410, 'server_error'],
    [301, 'bad_response'],
  ])('does not retry a %i (%s)', async (status, kind) => {
    upstream.queue(
      json(
        status,
        { type: 'x', title: 'x', status, detail: 'Upstream says no.', code: 'playlist_not_found' },
        { Location: 'http://elsewhere.example/' },
      ),
    );
    const result = await client.fetchPage(first);
    expect(result).toMatchObject({ ok: false, attempts: 1, failure: { kind } });
    expect(upstream.hits()).toBe(1);
  });

  it('passes on an upstream problem’s code and detail for a 404', async () => {
    upstream.queue(
      json(404, {
        type: 'x',
        title: 'Not Found',
        status: 404,
        detail: 'No such playlist.',
        code: 'playlist_not_found',
      }),
    );
    expect(await client.fetchPage(first)).toMatchObject({
      failure: { kind: 'not_found', code: 'playlist_not_found', detail: 'No such playlist.' },
    });
  });

  it('a 429 pauses all upstream calls for its Retry-After', async () => {
    upstream.queue(json(429, {}, { 'Retry-After': '120' }));
    expect(await client.fetchPage(first)).toMatchObject({
      failure: { kind: 'rate_limited', retryAfterSeconds: 120 },
    });
    const next = await client.fetchPage(first);
    expect(next).toMatchObject({ ok: false, attempts: 0, failure: { kind: 'quota_paused' } });
    expect(upstream.hits()).toBe(1);
  });

  it('refuses before calling when the budget is spent', async () => {
    quota = createQuotaGuard({ budgetPerHour: 1 });
    const limited = makeClient();
    expect((await limited.fetchPage(first)).ok).toBe(true);
    expect(await limited.fetchPage(first)).toMatchObject({
      ok: false,
      attempts: 0,
      failure: { kind: 'quota_exhausted' },
    });
    expect(upstream.hits()).toBe(1);
    await limited.close();
  });

  it('does not retry beyond the budget', async () => {
    quota = createQuotaGuard({ budgetPerHour: 2 });
    const limited = makeClient();
    upstream.queue(json(503, {}), json(503, {}), json(200, 'not reached'));
    expect(await limited.fetchPage(first)).toMatchObject({
      ok: false,
      attempts: 2,
      failure: { kind: 'server_error' },
    });
    expect(upstream.hits()).toBe(2);
    await limited.close();
  });

  it('one deadline covers the call: a hanging upstream is a timeout, not retried', async () => {
    const quick = makeClient({ deadlineMs: 150 });
    upstream.queue(hang);
    const started = Date.now();
    expect(await quick.fetchPage(first)).toMatchObject({ ok: false, failure: { kind: 'timeout' } });
    expect(Date.now() - started).toBeLessThan(1500);
    expect(upstream.hits()).toBe(1);
    await quick.close();
  });

  it('an unreachable upstream is a network failure', async () => {
    const port = new URL(upstream.url).port;
    await upstream.close();
    const nowhere = makeClient({ baseUrl: `http://127.0.0.1:${port}`, retries: 1 });
    expect(await nowhere.fetchPage(first)).toMatchObject({
      ok: false,
      attempts: 2,
      failure: { kind: 'unreachable' },
    });
    await nowhere.close();
    upstream = await startTestUpstream(); // for afterEach
  });

  it.each([
    ['cut-off JSON', '{"items":[{"id":"'],
    ['HTML', '<html>oops</html>'],
    ['wrong shape', { items: 'none', continuation: null }],
    ['first playlist page without info', { items: [playlistItem(1)], continuation: null }],
    [
      'more than 100 playlist items',
      {
        info: playlistInfo(PLAYLIST),
        items: Array.from({ length: 101 }, (_, i) => playlistItem(i + 1)),
        continuation: null,
      },
    ],
  ])('a 200 with %s is a bad response', async (_label, body) => {
    upstream.queue(json(200, body));
    expect(await client.fetchPage(first)).toMatchObject({
      ok: false,
      attempts: 1,
      failure: { kind: 'bad_response', upstreamStatus: 200 },
    });
  });

  it('caps the body size', async () => {
    const small = makeClient({ maxBodyBytes: 1000 });
    upstream.queue(
      json(200, {
        info: playlistInfo(PLAYLIST),
        items: Array.from({ length: 50 }, (_, i) => playlistItem(i + 1)),
        continuation: null,
      }),
    );
    expect(await small.fetchPage(first)).toMatchObject({
      ok: false,
      failure: { kind: 'bad_response' },
    });
    await small.close();
  });

  it('says loudly when the credentials are rejected, and never logs them', async () => {
    upstream.queue(json(401, {}));
    await client.fetchPage(first);
    expect(client.health().credentialsRejected).toBe(true);
    const error = logs.find((l) => l.level === 'error');
    expect(error?.msg).toMatch(/REJECTED THE API CREDENTIALS/);
    await client.fetchPage(first);
    expect(client.health().credentialsRejected).toBe(false);
    const text = JSON.stringify(logs);
    expect(text).not.toContain(API_KEY);
    expect(text).not.toContain(API_SECRET);
  });
});

describe('Retry-After', () => {
  it('of the upstream is bounded to a second and an hour', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(upstreamRetryAfter('7', now)).toBe(7);
    expect(upstreamRetryAfter('0', now)).toBe(1);
    expect(upstreamRetryAfter('999999', now)).toBe(3600);
    expect(upstreamRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30);
    expect(upstreamRetryAfter('soon', now)).toBeUndefined();
    expect(upstreamRetryAfter(undefined, now)).toBeUndefined();
  });
});
