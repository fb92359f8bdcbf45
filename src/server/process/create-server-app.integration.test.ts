import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../../shared/endpoints.ts';
import { demoEntriesSchema } from '../../shared/explorer-api.ts';
import {
  APP_HEAD_PLACEHOLDER,
  APP_HTML_PLACEHOLDER,
  APP_STATE_PLACEHOLDER,
  type RenderApp,
} from '../../shared/app-render.ts';
import { PROBLEM_CONTENT_TYPE, problemSchema } from '../../shared/problem.ts';
import { builtRender, hasServerBuild, stateOf, testShell } from '../../test-support/app-shell.ts';
import { createAppHtml } from '../rendering/app-html.ts';
import { createLinkPreviews } from '../rendering/link-preview.ts';
import { createClientRateLimit } from '../quota/client-rate-limit.ts';
import { createServerApp, type ServerAppOptions } from './create-server-app.ts';
import { CONTENT_SECURITY_POLICY } from '../http/security-headers.ts';
import { createLogger } from '../observability/logger.ts';
import { buildPageSource } from '../pages/build-page-source.ts';
import type { PageSourceOptions } from '../pages/page-source.ts';
import { createQuotaGuard } from '../quota/quota-guard.ts';
import { loadStaticSite, type StaticSite } from '../rendering/static-files.ts';
import {
  channelVideo,
  destroy,
  gate,
  hang,
  json,
  playlistInfo,
  playlistItem,
  startTestUpstream,
  type TestUpstream,
} from '../../test-support/test-upstream.ts';
import { createUpstreamClient, type UpstreamClient } from '../upstream/client.ts';
import { SERVER_RENDERED_ROWS } from '../../shared/app-render.ts';

// The explorer app in-process (`app.request()`), its upstream a real, deliberately
// misbehaving HTTP server: every error mapping, input checked before any quota is spent,
// merging, stale pages, the quota guard, the browser-facing headers, the static app and the
// rendered pages, and no credential anywhere (checked after every test).

const API_KEY = `key-${crypto.randomUUID()}`;
const API_SECRET = `secret-${crypto.randomUUID()}`;
const PLAYLIST = 'PLcatalogueDemoPlaylist0101items00';
const CHANNEL = 'UCcatalogueDemoChannel01';
const ASSET = '/assets/index-Bx7Qk2aZ.js';

let staticRoot: string;
let site: StaticSite;
let render: RenderApp | null;
let upstream: TestUpstream;
const logLines: string[] = [];
const seen: string[] = []; // this test's responses, headers and bodies, checked for credentials
const clients: UpstreamClient[] = [];

beforeAll(async () => {
  staticRoot = mkdtempSync(join(tmpdir(), 'explorer-static-'));
  mkdirSync(join(staticRoot, 'assets'));
  writeFileSync(
    join(staticRoot, 'index.html'),
    `<!doctype html><html><head>${APP_HEAD_PLACEHOLDER}<script type="module" src="${ASSET}"></script></head><body><div id="root">${APP_HTML_PLACEHOLDER}</div>${APP_STATE_PLACEHOLDER}</body></html>\n${'<!-- padding -->'.repeat(100)}`,
  );
  writeFileSync(
    join(staticRoot, ASSET.slice(1)),
    `console.log(${JSON.stringify('x'.repeat(4000))});`,
  );
  writeFileSync(join(staticRoot, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(staticRoot, '.env'), `CATALOGUE_API_SECRET=${API_SECRET}`); // dotfiles are never served
  site = loadStaticSite(staticRoot);
  render = hasServerBuild ? await builtRender() : null;
  await site.ready;
  upstream = await startTestUpstream();
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  upstream.reset();
});

afterEach(() => {
  // Every test, alone or not: the key and the secret appear in none of the responses it got
  // and none of the log lines it caused, and there were some of both to look at.
  const everything = seen.splice(0).join('\n') + logLines.splice(0).join('\n');
  expect(everything).toMatch(/"msg":"request"/);
  expect(everything).toMatch(/content-security-policy/i);
  expect(everything).not.toContain(API_KEY);
  expect(everything).not.toContain(API_SECRET);
});

afterAll(async () => {
  await upstream.close();
  rmSync(staticRoot, { recursive: true, force: true });
});

interface Setup
  extends
    Partial<Omit<ServerAppOptions, 'pageSource' | 'upstream'>>,
    Pick<PageSourceOptions, 'freshMs' | 'now'> {
  budget?: number;
  burst?: number;
  deadlineMs?: number;
  cacheBytes?: number;
  baseUrl?: string;
  /** In place of the upstream client over HTTP. */
  upstream?: Pick<UpstreamClient, 'fetchPage' | 'health'>;
}

function setup(options: Setup = {}) {
  const {
    budget = 1000,
    burst = 1000,
    deadlineMs = 2000,
    cacheBytes = 10_000_000,
    baseUrl = upstream.url,
    freshMs,
    now,
    ...rest
  } = options;
  const logger = createLogger('debug', { write: (line: string) => void logLines.push(line) });
  const quota = createQuotaGuard({ budgetPerHour: budget });
  const client = createUpstreamClient({
    baseUrl,
    apiKey: API_KEY,
    apiSecret: API_SECRET,
    quota,
    logger,
    backoffMs: 1,
    deadlineMs,
  });
  clients.push(client);
  const pagesFrom = options.upstream ?? client;
  const { pageSource } = buildPageSource({
    upstream: pagesFrom,
    cacheMaxBytes: cacheBytes,
    clientRateLimit: createClientRateLimit({ burst, perSecond: 0.001 }),
    freshMs,
    now,
  });
  const app = createServerApp({
    pageSource,
    upstream: pagesFrom,
    staticSite: site,
    appHtml: createAppHtml(
      testShell(render, site.index.body.toString('utf8')),
      createLinkPreviews({ pageSource }),
      logger,
    ),
    logger,
    initialPageWaitMs: 300,
    ...rest,
  });
  /** A request from `address` (the socket's remote address, as @hono/node-server gives it). */
  const request = async (path: string, init: RequestInit = {}, address = '192.0.2.1') => {
    const response = await app.request(path, init, {
      incoming: { socket: { remoteAddress: address } },
    });
    const body = Buffer.from(await response.arrayBuffer());
    seen.push(JSON.stringify([...response.headers]), body.toString('latin1'));
    return { response, body, text: body.toString('utf8') };
  };
  return { app, request, quota, client, logger };
}

function api(endpoint: keyof typeof endpoints, id: string, continuation?: string) {
  const query = new URLSearchParams({ id });
  if (continuation !== undefined) query.set('continuation', continuation);
  return `${endpoints[endpoint].path}?${query}`;
}

function expectProblem(result: { response: Response; text: string }, status: number, code: string) {
  expect(result.response.status).toBe(status);
  expect(result.response.headers.get('content-type')).toBe(PROBLEM_CONTENT_TYPE);
  const problem = problemSchema.parse(JSON.parse(result.text));
  expect(problem).toMatchObject({ status, code });
  expect(result.text).not.toMatch(/\bat .+:\d+:\d+/); // never a stack trace
  return problem;
}

describe('lookups through the explorer', () => {
  it('answers a page from the upstream, adding the credentials itself', async () => {
    const { request } = setup();
    const { response, text } = await request(api('playlist', PLAYLIST));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('x-cache')).toBe('miss');
    const page = endpoints.playlist.pageSchema.parse(JSON.parse(text));
    expect(page.info?.id).toBe(PLAYLIST);
    expect(upstream.requests[0]?.headers['api-key']).toBe(API_KEY);
    expect(upstream.requests[0]?.headers['api-secret']).toBe(API_SECRET);
  });

  it('forwards no header and no parameter of the browser’s own', async () => {
    const { request } = setup();
    await request(api('channel-videos', CHANNEL), {
      headers: {
        Cookie: 'session=abc',
        Authorization: 'Bearer browser-token',
        'API-Key': 'browser-key',
        'API-Secret': 'browser-secret',
        'X-Forwarded-For': '203.0.113.9',
        Referer: 'https://evil.example/',
      },
    });
    const sent = upstream.requests[0];
    expect(sent?.url).toBe(`/api/v1/channel-videos?id=${CHANNEL}`);
    expect(sent?.headers['api-key']).toBe(API_KEY);
    expect(sent?.headers['api-secret']).toBe(API_SECRET);
    for (const name of ['cookie', 'authorization', 'x-forwarded-for', 'referer'])
      expect(sent?.headers[name]).toBeUndefined();
  });

  it('passes a continuation through byte for byte', async () => {
    const { request } = setup();
    const continuation = "EgZ2aWRlb3O4AQ+/=%3D%25~!*'()";
    const { response } = await request(api('playlist', PLAYLIST, continuation));
    expect(response.status).toBe(200);
    expect(
      new URL(upstream.requests[0]?.url ?? '', 'http://x').searchParams.get('continuation'),
    ).toBe(continuation);
  });

  it.each([
    { label: 'no id', path: '/api/v1/playlist', code: 'missing_id' },
    { label: 'an empty id', path: '/api/v1/playlist?id=', code: 'missing_id' },
    {
      label: 'a channel ID for a playlist',
      path: `/api/v1/playlist?id=pl-${PLAYLIST}`,
      code: 'invalid_id',
    },
    {
      label: 'a playlist ID for a channel',
      path: `/api/v1/channel-videos?id=${PLAYLIST}`,
      code: 'invalid_id',
    },
    { label: 'a short channel ID', path: '/api/v1/channel-playlists?id=UC123', code: 'invalid_id' },
    {
      label: 'a repeated id',
      path: `/api/v1/playlist?id=${PLAYLIST}&id=${PLAYLIST}`,
      code: 'repeated_parameter',
    },
    {
      label: 'a repeated continuation',
      path: `/api/v1/playlist?id=${PLAYLIST}&continuation=a&continuation=b`,
      code: 'repeated_parameter',
    },
    {
      label: 'an unknown parameter',
      path: `/api/v1/playlist?id=${PLAYLIST}&key=${API_KEY}`,
      code: 'unknown_parameter',
    },
    {
      label: 'an oversized continuation',
      path: `/api/v1/playlist?id=${PLAYLIST}&continuation=${'A'.repeat(5000)}`,
      code: 'invalid_continuation',
    },
    {
      label: 'a continuation with a space',
      path: `/api/v1/playlist?id=${PLAYLIST}&continuation=a%20b`,
      code: 'invalid_continuation',
    },
    {
      label: 'a continuation with a control character',
      path: `/api/v1/playlist?id=${PLAYLIST}&continuation=a%00b`,
      code: 'invalid_continuation',
    },
    {
      label: 'broken percent-encoding',
      path: `/api/v1/playlist?id=${PLAYLIST}&continuation=%E0%A4%A`,
      code: 'invalid_continuation',
    },
  ] as const)('$label: 400 $code, and the upstream is never called', async ({ path, code }) => {
    const { request } = setup();
    const result = await request(path);
    expectProblem(result, 400, code);
    expect(result.response.headers.get('cache-control')).toBe('no-store');
    expect(upstream.hits()).toBe(0);
  });

  it('names what was wrong with a stable code', async () => {
    const { request } = setup();
    expectProblem(await request('/api/v1/playlist'), 400, 'missing_id');
    expectProblem(await request('/api/v1/channel-videos?id=nope'), 400, 'invalid_id');
    expectProblem(await request(`/api/v1/playlist?id=${PLAYLIST}&x=1`), 400, 'unknown_parameter');
    expectProblem(
      await request(`/api/v1/playlist?id=${PLAYLIST}&id=${PLAYLIST}`),
      400,
      'repeated_parameter',
    );
    expectProblem(
      await request(`/api/v1/playlist?id=${PLAYLIST}&continuation=${'A'.repeat(5000)}`),
      400,
      'invalid_continuation',
    );
    expect(upstream.hits()).toBe(0);
  });
});

describe('upstream errors, mapped to what the browser gets', () => {
  const problemBody = (status: number, code: string) => ({
    type: 'about:blank',
    title: 'x',
    status,
    detail: `Upstream ${code}.`,
    code,
  });

  it.each([
    ['400', 400, 'invalid_continuation', json(400, problemBody(400, 'invalid_continuation'))],
    ['404', 404, 'playlist_not_found', json(404, problemBody(404, 'playlist_not_found'))],
    ['404 without a problem body', 404, 'playlist_not_found', json(404, 'Not Found')],
    ['401', 502, 'upstream_credentials_rejected', json(401, problemBody(401, 'unauthorized'))],
    ['403', 502, 'upstream_credentials_rejected', json(403, 'Forbidden')],
    ['500', 502, 'upstream_error', json(500, 'Internal Server Error')],
    ['a 200 with a malformed body', 502, 'upstream_bad_response', json(200, '{"items":[{"id":"')],
    [
      'a 200 that breaks the schema',
      502,
      'upstream_bad_response',
      json(200, { items: [{ id: 1 }], continuation: null }),
    ],
    [
      'a first playlist page without info',
      502,
      'upstream_bad_response',
      json(200, { items: [playlistItem(1)], continuation: null }),
    ],
    [
      'a redirect',
      502,
      'upstream_bad_response',
      json(302, '', { Location: 'https://attacker.example/' }),
    ],
  ])('upstream %s → %i %s', async (_label, status, code, behaviour) => {
    const { request } = setup();
    upstream.queue(behaviour);
    expectProblem(await request(api('playlist', PLAYLIST)), status, code);
    expect(upstream.hits()).toBe(1); // none of these is retried
  });

  it('502/503/504 are retried (at most twice) before they become a 502', async () => {
    const { request } = setup();
    upstream.queue(json(503, ''), json(502, ''), json(504, ''));
    expectProblem(await request(api('playlist', PLAYLIST)), 502, 'upstream_error');
    expect(upstream.hits()).toBe(3);
    upstream.queue(json(503, ''), destroy);
    expect((await request(api('playlist', PLAYLIST))).response.status).toBe(200);
  });

  it('upstream 429 → 429 with its Retry-After, and no calls until then', async () => {
    const { request } = setup();
    upstream.queue(json(429, problemBody(429, 'rate_limited'), { 'Retry-After': '42' }));
    const limited = await request(api('playlist', PLAYLIST));
    const problem = expectProblem(limited, 429, 'upstream_rate_limited');
    expect(limited.response.headers.get('retry-after')).toBe('42');
    expect(problem.retryAfter).toBe(42);
    const next = await request(api('channel-videos', CHANNEL));
    expectProblem(next, 429, 'upstream_rate_limited');
    expect(Number(next.response.headers.get('retry-after'))).toBeGreaterThan(40);
    expect(upstream.hits()).toBe(1);
  });

  it('a deadline passed → 504', async () => {
    const { request } = setup({ deadlineMs: 150 });
    upstream.queue(hang);
    expectProblem(await request(api('playlist', PLAYLIST)), 504, 'upstream_timeout');
  });

  it('an unreachable upstream → 503 with Retry-After', async () => {
    const { request } = setup({ baseUrl: 'http://127.0.0.1:9' });
    const result = await request(api('playlist', PLAYLIST));
    expectProblem(result, 503, 'upstream_unavailable');
    expect(result.response.headers.get('retry-after')).toBe('5');
  });

  it('rejected credentials are logged at error level and make /readyz degraded', async () => {
    const { request } = setup();
    expect((await request('/readyz')).response.status).toBe(200);
    upstream.queue(json(401, problemBody(401, 'unauthorized')));
    await request(api('playlist', PLAYLIST));
    const errors = logLines
      .map((l) => JSON.parse(l) as { level: number; msg: string })
      .filter((l) => l.level >= 50);
    expect(errors.some((l) => /REJECTED THE API CREDENTIALS/.test(l.msg))).toBe(true);
    const ready = await request('/readyz');
    expect(ready.response.status).toBe(503);
    expect(JSON.parse(ready.text)).toMatchObject({
      status: 'degraded',
      reason: 'upstream_credentials_rejected',
    });
    expect((await request('/healthz')).response.status).toBe(200);
  });

  it('an unexpected failure inside is a 500 problem without a stack trace', async () => {
    const { request } = setup({
      upstream: {
        fetchPage: () => {
          throw new Error('boom');
        },
        health: () => ({ credentialsRejected: false, lastSuccessAt: null, lastFailureAt: null }),
      },
    });
    const result = await request(api('playlist', PLAYLIST));
    expectProblem(result, 500, 'internal_error');
    expect(result.text).not.toContain('boom');
  });
});

describe('spending the quota wisely', () => {
  it('50 simultaneous identical cold requests cause one upstream call', async () => {
    const { request } = setup();
    const held = gate();
    upstream.queue(held.behaviour);
    const answers = Array.from({ length: 50 }, () => request(api('playlist', PLAYLIST)));
    await held.arrived;
    held.release();
    const results = await Promise.all(answers);
    expect(upstream.hits()).toBe(1);
    expect(new Set(results.map((r) => r.response.status))).toEqual(new Set([200]));
    expect(new Set(results.map((r) => r.text)).size).toBe(1);
    const caches = results.map((r) => r.response.headers.get('x-cache'));
    expect(caches.filter((c) => c === 'miss')).toHaveLength(1);
    expect(caches.filter((c) => c === 'merged')).toHaveLength(49);
  });

  it('merged requests share a failure too, and it is not cached', async () => {
    const { request } = setup();
    const held = gate(json(500, ''));
    upstream.queue(held.behaviour);
    const answers = Array.from({ length: 10 }, () => request(api('playlist', PLAYLIST)));
    await held.arrived;
    held.release();
    const results = await Promise.all(answers);
    expect(results.every((r) => r.response.status === 502)).toBe(true);
    expect(upstream.hits()).toBe(1);
    expect((await request(api('playlist', PLAYLIST))).response.status).toBe(200);
    expect(upstream.hits()).toBe(2);
  });

  it('a cached page is served without an upstream call, and when the upstream is down', async () => {
    let now = 1_000_000;
    const { request } = setup({ now: () => now, freshMs: { playlist: 60_000 } });
    const fresh = await request(api('playlist', PLAYLIST));
    expect((await request(api('playlist', PLAYLIST))).response.headers.get('x-cache')).toBe('hit');
    expect(upstream.hits()).toBe(1);

    now += 61_000; // no longer fresh: the explorer asks again, and the upstream fails
    upstream.queue(json(500, ''));
    const stale = await request(api('playlist', PLAYLIST));
    expect(stale.response.status).toBe(200);
    expect(stale.response.headers.get('x-cache')).toBe('stale');
    expect(stale.response.headers.get('cache-control')).toBe('no-cache');
    expect(stale.text).toBe(fresh.text);

    const { request: viaDeadUpstream } = setup({ now: () => now, baseUrl: 'http://127.0.0.1:9' });
    await viaDeadUpstream(api('channel-videos', CHANNEL)).then((r) =>
      expect(r.response.status).toBe(503),
    );

    // The upstream recovers: a fresh copy replaces the stale one.
    upstream.requests.length = 0;
    upstream.queue(
      json(200, {
        info: playlistInfo(PLAYLIST),
        items: [playlistItem(1), playlistItem(2)],
        continuation: null,
      }),
    );
    const renewed = await request(api('playlist', PLAYLIST));
    expect(renewed.response.headers.get('x-cache')).toBe('miss');
    expect(JSON.parse(renewed.text).items).toHaveLength(2);
  });

  it('a stale page stands in for an unreachable upstream too', async () => {
    let now = 0;
    const gone = await startTestUpstream();
    const { request } = setup({ now: () => now, baseUrl: gone.url });
    expect((await request(api('channel-videos', CHANNEL))).response.status).toBe(200);
    await gone.close();
    now += 10 * 60_000;
    const stale = await request(api('channel-videos', CHANNEL));
    expect(stale.response.status).toBe(200);
    expect(stale.response.headers.get('x-cache')).toBe('stale');
  });

  it('an upstream 404 is remembered briefly, so repeats spend nothing', async () => {
    const { request } = setup();
    upstream.queue(json(404, 'no'));
    expectProblem(await request(api('playlist', PLAYLIST)), 404, 'playlist_not_found');
    expectProblem(await request(api('playlist', PLAYLIST)), 404, 'playlist_not_found');
    expect(upstream.hits()).toBe(1);
  });

  it('the quota guard answers 429 before the budget is spent', async () => {
    const { request, quota } = setup({ budget: 3 });
    for (const id of [
      'PLaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
      'PLbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb',
      'PLcccccccccccccccccccccccccccccccc',
    ]) {
      expect((await request(api('playlist', id))).response.status).toBe(200);
    }
    const refused = await request(api('playlist', 'PLdddddddddddddddddddddddddddddddd'));
    const problem = expectProblem(refused, 429, 'quota_exhausted');
    expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThan(3000);
    expect(problem.retryAfter).toBe(Number(refused.response.headers.get('retry-after')));
    expect(upstream.hits()).toBe(3);
    expect(quota.stats().usedLastHour).toBe(3);
    // What is cached is still served.
    expect(
      (await request(api('playlist', 'PLaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'))).response.status,
    ).toBe(200);
  });

  it('one client cannot drain the budget; cache hits and merged requests are free', async () => {
    const { request } = setup({ burst: 2 });
    const a = '198.51.100.1';
    const b = '198.51.100.2';
    expect(
      (await request(api('playlist', 'PLaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'), {}, a)).response.status,
    ).toBe(200);
    expect(
      (await request(api('playlist', 'PLbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb'), {}, a)).response.status,
    ).toBe(200);
    const limited = await request(api('playlist', 'PLcccccccccccccccccccccccccccccccc'), {}, a);
    expectProblem(limited, 429, 'rate_limited');
    expect(limited.response.headers.get('retry-after')).not.toBeNull();
    expect(upstream.hits()).toBe(2);
    // Cache hits are free.
    expect(
      (await request(api('playlist', 'PLaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'), {}, a)).response.status,
    ).toBe(200);
    // Another client is unaffected, and A may join B's request in flight.
    const held = gate();
    upstream.queue(held.behaviour);
    const fromB = request(api('playlist', 'PLcccccccccccccccccccccccccccccccc'), {}, b);
    await held.arrived;
    const fromA = request(api('playlist', 'PLcccccccccccccccccccccccccccccccc'), {}, a);
    await new Promise((resolve) => setImmediate(resolve));
    held.release();
    expect((await fromB).response.status).toBe(200);
    expect((await fromA).response.headers.get('x-cache')).toBe('merged');
  });

  it('reads the client from X-Forwarded-For only when told to trust a proxy', async () => {
    const { request } = setup({ burst: 1, trustProxy: true });
    const via = (ip: string, id: string) =>
      request(api('playlist', id), { headers: { 'X-Forwarded-For': `10.0.0.1, ${ip}` } });
    expect((await via('203.0.113.1', 'PLaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')).response.status).toBe(
      200,
    );
    expect((await via('203.0.113.2', 'PLbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb')).response.status).toBe(
      200,
    );
    expect((await via('203.0.113.1', 'PLcccccccccccccccccccccccccccccccc')).response.status).toBe(
      429,
    );
  });
});

describe('to the browser', () => {
  it('strong ETags and 304, per content coding', async () => {
    const { request } = setup();
    upstream.queue(
      json(200, {
        info: playlistInfo(PLAYLIST),
        items: Array.from({ length: 20 }, (_, i) => playlistItem(i + 1)),
        continuation: null,
      }),
    );
    const first = await request(api('playlist', PLAYLIST));
    const etag = first.response.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.response.headers.get('cache-control')).toBe('public, max-age=60');
    expect(first.response.headers.get('vary')).toBe('Accept-Encoding');

    const again = await request(api('playlist', PLAYLIST), { headers: { 'If-None-Match': etag } });
    expect(again.response.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.response.headers.get('etag')).toBe(etag);

    const big = await request(api('playlist', PLAYLIST), {
      headers: { 'Accept-Encoding': 'gzip, deflate, br' },
    });
    const brTag = big.response.headers.get('etag') ?? '';
    expect(brTag).not.toBe(etag);
    expect(brTag.startsWith('"')).toBe(true);
    const brAgain = await request(api('playlist', PLAYLIST), {
      headers: { 'Accept-Encoding': 'br', 'If-None-Match': `W/${brTag}` },
    });
    expect(brAgain.response.status).toBe(304);
    expect(
      (await request(api('playlist', PLAYLIST), { headers: { 'If-None-Match': '"other"' } }))
        .response.status,
    ).toBe(200);
  });

  it('compresses pages with brotli, or gzip, when accepted', async () => {
    const { request } = setup();
    const items = Array.from({ length: 100 }, (_, i) => playlistItem(i + 1));
    upstream.queue(json(200, { info: playlistInfo(PLAYLIST), items, continuation: 'c' }));
    const plain = await request(api('playlist', PLAYLIST));
    expect(plain.response.headers.get('content-encoding')).toBeNull();
    const br = await request(api('playlist', PLAYLIST), {
      headers: { 'Accept-Encoding': 'gzip, deflate, br, zstd' },
    });
    expect(br.response.headers.get('content-encoding')).toBe('br');
    expect(br.body.length).toBeLessThan(plain.body.length / 5);
    expect(brotliDecompressSync(br.body).toString()).toBe(plain.text);
    const gz = await request(api('playlist', PLAYLIST), { headers: { 'Accept-Encoding': 'gzip' } });
    expect(gz.response.headers.get('content-encoding')).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(plain.text);
    // Small answers are not worth it.
    upstream.queue(json(200, { items: [channelVideo(1)], continuation: null }));
    const small = await request(api('channel-videos', CHANNEL), {
      headers: { 'Accept-Encoding': 'br' },
    });
    expect(small.response.headers.get('content-encoding')).toBeNull();
  });

  it('HEAD answers like GET without a body', async () => {
    const { request } = setup();
    const head = await request(api('playlist', PLAYLIST), { method: 'HEAD' });
    expect(head.response.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(head.response.headers.get('etag')).toMatch(/^"/);
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'])('%s → 405 with Allow', async (method) => {
    const { request } = setup();
    for (const path of [api('playlist', PLAYLIST), '/', '/playlist/x']) {
      const result = await request(path, { method, body: method === 'OPTIONS' ? null : '{}' });
      expectProblem(result, 405, 'method_not_allowed');
      expect(result.response.headers.get('allow')).toBe('GET, HEAD');
    }
    expect(upstream.hits()).toBe(0);
  });

  it('unknown API paths are JSON 404 problems', async () => {
    const { request } = setup();
    for (const path of [
      '/api',
      '/api/',
      '/api/v1',
      '/api/v1/search?q=x',
      '/api/v2/playlist?id=x',
      '/api/v1/playlist/extra',
    ]) {
      expectProblem(await request(path), 404, 'not_found');
    }
  });

  it('/api/demo: the demo entries with the embedded catalogue, 404 otherwise', async () => {
    expectProblem(await setup().request('/api/demo'), 404, 'not_found');
    const entries = [{ kind: 'playlist' as const, id: PLAYLIST, title: 'T', description: 'D' }];
    const demo = await setup({ demoEntries: entries }).request('/api/demo');
    expect(demo.response.status).toBe(200);
    expect(demoEntriesSchema.parse(JSON.parse(demo.text))).toEqual({ entries });
  });

  it('security headers on every kind of answer', async () => {
    const { request } = setup();
    const answers = await Promise.all(
      [
        api('playlist', PLAYLIST),
        '/api/v1/playlist',
        '/api/nope',
        '/',
        '/nope',
        ASSET,
        '/assets/missing.js',
        '/healthz',
        '/readyz',
      ].map((p) => request(p)),
    );
    answers.push(await request('/', { method: 'POST' }));
    for (const { response } of answers) {
      expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    }
  });
});

describe('the app', () => {
  it('serves index.html for app routes (never cached) and the same HTML as a 404 elsewhere', async () => {
    const { request } = setup();
    for (const path of ['/', '/playlist', '/watch?v=abc']) {
      const { response, text } = await request(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(text).toContain('<div id="root">');
    }
    // Unknown paths, and a list whose ID cannot be one.
    for (const path of [
      '/nope',
      '/playlist/a/b',
      '/channel/x/shorts',
      '/favicon.ico',
      '/channel/whatever/playlists',
    ]) {
      const { response, text } = await request(path);
      expect(response.status).toBe(404);
      expect(text).toContain('<div id="root">');
    }
    expect(upstream.hits()).toBe(0);
  });

  it('hashed assets are cached for a year; others revalidate; dotfiles do not exist', async () => {
    const { request } = setup();
    const asset = await request(ASSET);
    expect(asset.response.status).toBe(200);
    expect(asset.response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.response.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    const etag = asset.response.headers.get('etag') ?? '';
    expect((await request(ASSET, { headers: { 'If-None-Match': etag } })).response.status).toBe(
      304,
    );
    const br = await request(ASSET, { headers: { 'Accept-Encoding': 'br' } });
    expect(br.response.headers.get('content-encoding')).toBe('br');
    expect(brotliDecompressSync(br.body)).toEqual(asset.body);

    expect((await request('/favicon.svg')).response.headers.get('cache-control')).toBe('no-cache');
    expect((await request('/index.html')).response.headers.get('cache-control')).toBe('no-cache');
    const missing = await request('/assets/gone-123.js');
    expect(missing.response.status).toBe(404);
    expect(missing.response.headers.get('content-type')).toMatch(/^text\/plain/);
    expect((await request('/.env')).response.status).toBe(404);
    expect((await request('/..%2f..%2fetc%2fpasswd')).response.status).toBe(404);
  });

  it.skipIf(!hasServerBuild).each([
    [`/playlist/${PLAYLIST}`, 'playlist'],
    [`/playlist/${PLAYLIST}?index=1`, 'playlist'],
    [`/channel/${CHANNEL}`, 'channel-videos'],
    [`/channel/${CHANNEL}/videos`, 'channel-videos'],
    [`/channel/${CHANNEL}/playlists`, 'channel-playlists'],
  ] as const)(
    '%s is rendered from its first page, which the HTML carries',
    async (path, endpoint) => {
      const { request } = setup();
      const { response, text } = await request(path, {
        headers: { 'Accept-Encoding': 'identity' },
      });
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-cache');
      for (const placeholder of [APP_HEAD_PLACEHOLDER, APP_HTML_PLACEHOLDER, APP_STATE_PLACEHOLDER])
        expect(text).not.toContain(placeholder);
      const block = text.match(/<script type="application\/json" id="app-state">(.*?)<\/script>/s);
      expect(block).not.toBeNull();
      expect(block?.[1]).not.toContain('<');
      const query = stateOf(text)?.queries.find((q) => q.queryKey[1] === endpoint);
      const page = endpoints[endpoint].pageSchema.parse(query?.state.data?.pages[0]);
      // The rows are in the markup, one per item of the first page (as many as are rendered).
      expect(text.match(/<article [^>]*aria-posinset=/g)?.length).toBe(
        Math.min(page.items.length, SERVER_RENDERED_ROWS.wide),
      );
      // Same cache as the API: the app's own request for page 1 is a hit.
      const id = endpoint === 'playlist' ? PLAYLIST : CHANNEL;
      expect((await request(api(endpoint, id))).response.headers.get('x-cache')).toBe('hit');
      expect(upstream.hits()).toBe(1);
      // No data block (the app's state, the JSON-LD) can close its script element early,
      // whatever the titles say: every </script> closes one the page opened.
      expect(text.match(/<\/script>/g)).toHaveLength(text.match(/<script\b/g)?.length ?? 0);
      expect(text.match(/<script type="application\/ld\+json">/g)).toHaveLength(2);
    },
  );

  it.each([
    [`/playlist?list=${PLAYLIST}`, `/playlist/${PLAYLIST}`],
    [`/watch?v=dQw4w9WgXcQ&list=${PLAYLIST}&index=2`, `/playlist/${PLAYLIST}?index=2`],
    [`/watch?v=dQw4w9WgXcQ&list=${PLAYLIST}`, `/playlist/${PLAYLIST}?v=dQw4w9WgXcQ`],
  ])('the platform’s own link %s redirects to the playlist’s own path', async (path, own) => {
    const { request } = setup();
    const { response } = await request(path);
    expect(response.status).toBe(302);
    expect(response.headers.get('location')).toBe(own);
    expect(upstream.hits()).toBe(0);
  });

  it('the HTML with a page is compressed when accepted', async () => {
    const { request } = setup();
    const plain = await request(`/playlist/${PLAYLIST}`);
    const br = await request(`/playlist/${PLAYLIST}`, { headers: { 'Accept-Encoding': 'br' } });
    expect(br.response.headers.get('content-encoding')).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(plain.text);
  });

  it('a failing upstream: the page’s own status, its wait, the view’s error, noindex, never kept', async () => {
    const { request } = setup();
    const noPage = (text: string) =>
      expect(stateOf(text)?.queries.filter((q) => q.state.data !== undefined) ?? []).toEqual([]);
    upstream.queue(json(500, ''));
    let result = await request(`/playlist/${PLAYLIST}`);
    expect(result.response.status).toBe(502);
    expect(result.response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(result.response.headers.get('cache-control')).toBe('no-store');
    expect(result.response.headers.get('etag')).toBeNull();
    expect(result.text).toContain('<meta name="robots" content="noindex" />');
    expect(result.text).not.toContain('rel="canonical"');
    noPage(result.text);
    const failed = stateOf(result.text)?.queries.find((q) => q.queryKey[1] === 'playlist');
    expect(failed?.state.status).toBe('error');
    if (hasServerBuild) {
      expect(result.text).toMatch(/<section role="alert"[^>]*>.*Catalogue error/s);
      expect(result.text).toMatch(/<button[^>]*>Retry<\/button>/);
    }

    // Unreachable: 503, and how long to wait, in the header and in the view's countdown.
    upstream.queue(destroy, destroy, destroy);
    result = await request(`/channel/${CHANNEL}/playlists`);
    expect(result.response.status).toBe(503);
    expect(result.response.headers.get('retry-after')).toBe('5');
    if (hasServerBuild) expect(result.text).toContain('Try again in 5 seconds.');

    // The view of a failure is not kept: once the upstream answers, the rows are there.
    result = await request(`/playlist/${PLAYLIST}`);
    expect(result.response.status).toBe(200);
    expect(stateOf(result.text)?.queries[0]?.state.status).toBe('success');
  });

  it('a slow upstream: the view loading, with 200; not found for an invalid ID', async () => {
    const { request } = setup();
    const noPage = (text: string) =>
      expect(stateOf(text)?.queries.filter((q) => q.state.data !== undefined) ?? []).toEqual([]);
    upstream.queue(hang);
    const started = Date.now();
    let result = await request(`/channel/${CHANNEL}`);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(result.response.status).toBe(200);
    expect(result.text).toContain('rel="canonical"');
    noPage(result.text);

    upstream.requests.length = 0;
    result = await request('/playlist/not-an-id');
    expect(result.response.status).toBe(404);
    noPage(result.text);
    expect(upstream.hits()).toBe(0);
  });

  it('logs one structured line per request, without query or credentials', async () => {
    const { request } = setup();
    const before = logLines.length;
    await request(`${api('playlist', PLAYLIST, 'secret-looking-continuation')}`, {
      headers: { 'X-Request-Id': 'trace-123' },
    });
    const lines = logLines.slice(before).map((l) => JSON.parse(l) as Record<string, unknown>);
    const line = lines.find((l) => l.msg === 'request');
    expect(line).toMatchObject({
      reqId: 'trace-123',
      method: 'GET',
      path: '/api/v1/playlist',
      route: 'api:playlist',
      status: 200,
      cache: 'miss',
      upstreamStatus: 200,
      upstreamAttempts: 1,
    });
    expect(typeof line?.ms).toBe('number');
    expect(JSON.stringify(lines)).not.toContain('secret-looking-continuation');
  });
});
