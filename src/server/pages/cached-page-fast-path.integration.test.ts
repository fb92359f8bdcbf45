import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { realPageSource, type RealPageSource } from '../../test-support/real-page-source.ts';
import {
  channelVideo,
  pagesFrom,
  playlistInfo,
  playlistItem,
  startTestUpstream,
  type TestUpstream,
} from '../../test-support/test-upstream.ts';
import { cachedPageFastPath } from './cached-page-fast-path.ts';
import { createServerApp } from '../process/create-server-app.ts';
import { createLogger } from '../observability/logger.ts';
import { createRequestLogger } from '../observability/request-log.ts';
import { DEFAULT_FRESH_MS, type PageSource } from './page-source.ts';

// The fast path for cached pages against the app it stands in front of. Two servers share one
// page source: the explorer as node:http runs it (the fast path, then the app) and the app
// alone. Every request goes to both, and both must answer alike (status, every header but the
// connection's own, the bytes); the fast path must have answered fresh hits itself, and handed
// everything else on.

const PLAYLIST = 'PLabcdefghijklmnopqrstuvwxyz012345';
const CHANNEL = 'UCabcdefghijklmnopqrstuv';

/** 100 items, a continuation with characters that travel percent-encoded, then a short page. */
function pageFor(url: URL): object | undefined {
  const id = url.searchParams.get('id');
  const continuation = url.searchParams.get('continuation');
  if (id === CHANNEL) return { items: [channelVideo(1)], continuation: null };
  if (id !== PLAYLIST) return undefined;
  if (continuation === null) {
    const items = Array.from({ length: 100 }, (_, i) => playlistItem(i + 1));
    return { info: playlistInfo(PLAYLIST), items, continuation: 'Eg+/Zm9v=%3D' };
  }
  return { items: [playlistItem(101)], continuation: null };
}

const first = `/api/v1/playlist?id=${PLAYLIST}`;
const second = `/api/v1/playlist?${new URLSearchParams({ id: PLAYLIST, continuation: 'Eg+/Zm9v=%3D' })}`;
const small = `/api/v1/channel-videos?id=${CHANNEL}`;

interface Raw {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** The connection's own headers, which say nothing about the answer. */
const CONNECTION_HEADERS = new Set(['date', 'connection', 'keep-alive']);

/** A request over real HTTP, path and headers exactly as given (no URL normalising client). */
function send(server: Server, path: string, headers: Record<string, string> = {}, method = 'GET') {
  const { port } = server.address() as AddressInfo;
  return new Promise<Raw>((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const answer: Record<string, string> = {};
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i]!.toLowerCase();
          if (!CONNECTION_HEADERS.has(name)) answer[name] = res.rawHeaders[i + 1]!;
        }
        resolve({ status: res.statusCode ?? 0, headers: answer, body: Buffer.concat(chunks) });
      });
    });
    req.on('error', reject);
    req.end();
  });
}

let upstream: TestUpstream;
let source: RealPageSource;
let clock = 1_000_000_000;
const logLines: Array<Record<string, unknown>> = [];
let viaFastPath: Server;
let appAlone: Server;
/** Requests the fast path handed on to the app. */
let handedOn = 0;
/** The next compressions the fast path asks for fail (the app's own still succeed). */
let failingEncodes = 0;

beforeAll(async () => {
  upstream = await startTestUpstream(pagesFrom(pageFor));
  source = realPageSource(upstream.url, { now: () => clock });
  const logger = createLogger('info', {
    write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>),
  });
  const requests = createRequestLogger(logger);
  const app = createServerApp({
    pageSource: source.pageSource,
    upstream: source.upstream,
    staticSite: null,
    appHtml: null,
    logger,
    requestLogger: requests,
  });
  const viaApp = getRequestListener(app.fetch);
  const pageSource: PageSource = {
    ...source.pageSource,
    encode: (lookup, page, encoding) =>
      failingEncodes-- > 0
        ? Promise.reject(new Error('compression failed'))
        : source.pageSource.encode(lookup, page, encoding),
  };
  const fastPath = cachedPageFastPath({ pageSource, requests });
  viaFastPath = createServer((req, res) =>
    fastPath(req, res, (q, s) => {
      handedOn++;
      void viaApp(q, s);
    }),
  );
  appAlone = createServer(viaApp);
  for (const server of [viaFastPath, appAlone])
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  for (const server of [viaFastPath, appAlone]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
  await source.close();
  await upstream.close();
});

beforeEach(() => {
  clock += DEFAULT_FRESH_MS.playlist + 24 * 3600_000; // every test starts with nothing usable
  handedOn = 0;
  failingEncodes = 0;
  logLines.length = 0;
});

/** Sends the request to both servers (the app alone first) and expects the same answer. */
async function sameAnswer(path: string, headers: Record<string, string> = {}, method = 'GET') {
  const expected = await send(appAlone, path, headers, method);
  const got = await send(viaFastPath, path, headers, method);
  expect(got.status, `${method} ${path}`).toBe(expected.status);
  expect(got.headers, `${method} ${path}`).toEqual(expected.headers);
  expect(got.body.equals(expected.body), `${method} ${path}: the same bytes`).toBe(true);
  return got;
}

describe('the fast path for cached pages', () => {
  it('answers a fresh hit itself, exactly as the app would, in every coding and condition', async () => {
    for (const path of [first, second, small]) await send(appAlone, path); // cached now
    const etag = (await send(appAlone, first)).headers.etag!;
    const cases: Array<[string, Record<string, string>]> = [
      [first, {}],
      [first, {}], // the answer kept from the first time
      [first, { 'Accept-Encoding': 'gzip, deflate, br, zstd' }],
      [first, { 'Accept-Encoding': 'gzip, deflate, br, zstd' }],
      [first, { 'Accept-Encoding': 'gzip' }],
      [first, { 'Accept-Encoding': 'br;q=0, gzip;q=0' }],
      [first, { 'If-None-Match': etag }],
      [first, { 'If-None-Match': `"other", W/${etag.slice(0, -1)}.br"` }],
      [first, { 'If-None-Match': '"other"' }],
      [first, { 'If-None-Match': '*', 'Accept-Encoding': 'br' }],
      [second, { 'Accept-Encoding': 'br' }], // a continuation that came percent-encoded
      [small, { 'Accept-Encoding': 'br' }], // too small to compress
    ];
    for (const [path, headers] of cases) {
      const answer = await sameAnswer(path, headers);
      expect(answer.headers['x-cache']).toBe('hit');
    }
    expect(handedOn).toBe(0);
    expect(upstream.hits()).toBe(3);
  });

  it('hands everything else to the app: other methods, misses, stale pages, bad input, odd URLs', async () => {
    await send(appAlone, first);
    const handed: Array<[string, Record<string, string>, string?]> = [
      [first, {}, 'HEAD'],
      [first, {}, 'POST'],
      [`/api/v1/playlist?id=${PLAYLIST}&key=x`, {}],
      [`/api/v1/playlist?id=${PLAYLIST}&id=${PLAYLIST}`, {}],
      ['/api/v1/playlist?id=not-a-playlist', {}],
      [`/api/v1/playlist/?id=${PLAYLIST}`, {}],
      [`/api/v1/playlist?id=${PLAYLIST}#fragment`, {}],
      [`/api/v1/playlist?id=${PLAYLIST}&continuation=a"b`, {}],
      [first, { Host: 'EXPLORER.example' }],
      ['/api/v1/playlist', {}],
      ['/healthz', {}],
    ];
    for (const [path, headers, method] of handed) {
      await send(appAlone, path, headers, method); // a lookup the app serves is cached now
      await sameAnswer(path, headers, method);
    }
    expect(handedOn).toBe(handed.length);

    // Not cached yet: the app fetches it; cached: the fast path answers.
    handedOn = 0;
    expect((await send(viaFastPath, small)).headers['x-cache']).toBe('miss');
    expect((await send(viaFastPath, small)).headers['x-cache']).toBe('hit');
    expect(handedOn).toBe(1);

    // Past its freshness the page is the app's to refresh (or to serve stale).
    clock += DEFAULT_FRESH_MS['channel-videos'] + 1;
    expect((await send(viaFastPath, small)).headers['x-cache']).toBe('miss');
    expect(handedOn).toBe(2);
  });

  it('lets the app answer when a compressed copy cannot be made', async () => {
    await send(appAlone, first);
    failingEncodes = 1;
    const answer = await send(viaFastPath, first, { 'Accept-Encoding': 'br' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-encoding']).toBe('br');
    expect(handedOn).toBe(1);
  });

  it('writes the same log line as the app, without the query', async () => {
    await send(appAlone, second);
    logLines.length = 0;
    await send(viaFastPath, second, { 'X-Request-Id': 'trace-123' });
    await send(viaFastPath, second);
    expect(handedOn).toBe(0);
    const [given, made] = logLines.filter((line) => line.msg === 'request');
    expect(given).toMatchObject({
      reqId: 'trace-123',
      method: 'GET',
      path: '/api/v1/playlist',
      route: 'api:playlist',
      status: 200,
      cache: 'hit',
    });
    expect(typeof given?.ms).toBe('number');
    expect(made?.reqId).toMatch(/^[a-z0-9]+-\d+$/);
    expect(JSON.stringify(logLines)).not.toContain('Eg');
  });
});
