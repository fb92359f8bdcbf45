import { existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ENTRIES, FIXTURE_IDS } from '../../catalogue/demo-fixtures.ts';
import { endpoints, type EndpointName } from '../../shared/endpoints.ts';
import { demoEntriesSchema } from '../../shared/explorer-api.ts';
import { hasServerBuild, stateOf, TEST_TEMPLATE } from '../../test-support/app-shell.ts';
import { PROBLEM_CONTENT_TYPE, problemSchema } from '../../shared/problem.ts';
import { createLogger } from '../observability/logger.ts';
import {
  startExplorerFixture,
  type ExplorerEnv,
  type ExplorerFixture,
} from '../../test-support/explorer-fixture.ts';
import { SERVER_RENDERED_ROWS } from '../../shared/app-render.ts';

// The whole explorer (start-explorer.ts, the composition root) over real HTTP, with the
// embedded catalogue as its upstream: first as a remote upstream behind a request counter,
// with credentials made up for this test, then in embedded mode. After every test, the
// credentials must appear in none of the responses it got and none of the log lines.

let fixture: ExplorerFixture;
let staticRoot: string;
const logLines: string[] = [];
const seen: string[] = [];

beforeAll(async () => {
  fixture = await startExplorerFixture();
  staticRoot = mkdtempSync(join(tmpdir(), 'explorer-dist-'));
  writeFileSync(join(staticRoot, 'index.html'), TEST_TEMPLATE);
  // The app's server build, as `npm run build` leaves it beside the client's.
  if (hasServerBuild) symlinkSync(resolve('dist/.ssr'), join(staticRoot, '.ssr'));
});

afterEach(() => fixture.reset());

afterEach(() => {
  // Every test, alone or not: the key and the secret appear in no response it got and no log
  // line written so far, and it did get responses to look at.
  const responses = seen.splice(0).join('\n');
  const everything = responses + logLines.splice(0).join('\n');
  expect(responses).toMatch(/content-security-policy/i);
  expect(everything).not.toContain(fixture.apiKey);
  expect(everything).not.toContain(fixture.apiSecret);
});

afterAll(async () => {
  await fixture.close();
  rmSync(staticRoot, { recursive: true, force: true });
});

/** An explorer in front of the counting proxy unless `env` says otherwise. */
async function serveExplorer(env: ExplorerEnv = {}, { warmUp = true } = {}) {
  const logger = createLogger('debug', { write: (line: string) => void logLines.push(line) });
  const served = await fixture.serve({ STATIC_ROOT: staticRoot, ...env }, { logger, warmUp });
  const get = async (path: string, init: RequestInit = {}) => {
    const response = await served.get(path, init);
    const text = await response.text();
    seen.push(JSON.stringify([...response.headers]), text);
    return { response, text };
  };
  return { ...served, get };
}

function lookupPath(endpoint: EndpointName, id: string, continuation?: string | null) {
  const query = new URLSearchParams({ id });
  if (continuation) query.set('continuation', continuation);
  return `${endpoints[endpoint].path}?${query}`;
}

describe('the explorer in front of the catalogue', () => {
  let get: Awaited<ReturnType<typeof serveExplorer>>['get'];
  beforeAll(async () => {
    ({ get } = await serveExplorer());
  });

  it('walks a playlist over a page boundary, continuations passed byte for byte', async () => {
    const indexes: number[] = [];
    let continuation: string | null = null;
    let pages = 0;
    do {
      const { response, text } = await get(
        lookupPath('playlist', FIXTURE_IDS.playlist101, continuation),
      );
      expect(response.status).toBe(200);
      const page = endpoints.playlist.pageSchema.parse(JSON.parse(text));
      if (pages === 0) expect(page.info?.totalItems).toBe(101);
      else expect(page.info).toBeUndefined();
      indexes.push(...page.items.map((item) => item.index));
      if (page.continuation) expect(page.continuation).toMatch(/^[\x21-\x7E]+$/);
      continuation = page.continuation;
      pages++;
    } while (continuation);
    expect(pages).toBe(2);
    expect(indexes).toEqual(Array.from({ length: 101 }, (_, i) => i + 1));
  });

  it('walks a channel’s videos; a channel without playlists answers the spec’s empty page', async () => {
    let count = 0;
    let continuation: string | null = null;
    do {
      const { text } = await get(
        lookupPath('channel-videos', FIXTURE_IDS.smallChannel, continuation),
      );
      const page = endpoints['channel-videos'].pageSchema.parse(JSON.parse(text));
      count += page.items.length;
      continuation = page.continuation;
    } while (continuation);
    expect(count).toBe(45);
    const { text } = await get(lookupPath('channel-playlists', FIXTURE_IDS.smallChannel));
    expect(JSON.parse(text)).toEqual({ items: [], continuation: null });
  });

  it('passes on the catalogue’s 404 and 400 as the same problem documents', async () => {
    const missing = await get(lookupPath('playlist', 'PLnoSuchPlaylistAnywhere000000000'));
    expect(missing.response.status).toBe(404);
    expect(missing.response.headers.get('content-type')).toBe(PROBLEM_CONTENT_TYPE);
    expect(problemSchema.parse(JSON.parse(missing.text)).code).toBe('playlist_not_found');
    const channel = await get(lookupPath('channel-videos', 'UCnoSuchChannelAnywhere0'));
    expect(problemSchema.parse(JSON.parse(channel.text))).toMatchObject({
      status: 404,
      code: 'channel_not_found',
    });
    const tampered = await get(lookupPath('playlist', FIXTURE_IDS.playlist101, 'AAAAforged+/=='));
    expect(problemSchema.parse(JSON.parse(tampered.text))).toMatchObject({
      status: 400,
      code: 'invalid_continuation',
    });
  });

  it('50 simultaneous identical cold requests cost one upstream call', async () => {
    const path = lookupPath('channel-videos', FIXTURE_IDS.bigChannel);
    // Keeps the first call in flight while the rest arrive.
    await fixture.setFaults({ latencyMs: 100 });
    const answers = await Promise.all(Array.from({ length: 50 }, () => get(path)));
    expect(answers.every((a) => a.response.status === 200)).toBe(true);
    expect(fixture.upstream.hits()).toBe(1);
  });

  it('bad input never reaches the upstream', async () => {
    for (const path of [
      '/api/v1/playlist',
      `/api/v1/playlist?id=${FIXTURE_IDS.playlist101}&id=${FIXTURE_IDS.playlist101}`,
      `/api/v1/channel-videos?id=${FIXTURE_IDS.playlist101}`,
      `/api/v1/playlist?id=${FIXTURE_IDS.playlist101}&continuation=${'x'.repeat(4097)}`,
      `/api/v1/playlist?id=${FIXTURE_IDS.playlist101}&api_key=x`,
    ]) {
      expect((await get(path)).response.status).toBe(400);
    }
    expect(fixture.upstream.hits()).toBe(0);
  });

  it.skipIf(!hasServerBuild)(
    'renders a playlist’s first rows from its first page, which the HTML carries whole',
    async () => {
      const { response, text } = await get(`/playlist/${FIXTURE_IDS.playlist5000}`);
      expect(response.status).toBe(200);
      // Three tall screens of rows; the app hydrates from the whole page.
      expect(text.match(/<article [^>]*aria-posinset=/g)).toHaveLength(SERVER_RENDERED_ROWS.wide);
      const query = stateOf(text)?.queries.find((q) => q.queryKey[1] === 'playlist');
      const page = endpoints.playlist.pageSchema.parse(query?.state.data?.pages[0]);
      expect(page.items).toHaveLength(100);
      expect(page.info?.totalItems).toBe(5000);
    },
  );

  it.skipIf(!hasServerBuild)(
    'renders a phone fewer rows, and says the page varies with the hint it read',
    async () => {
      const phone = { headers: { 'sec-ch-ua-mobile': '?1' } };
      const { response, text } = await get(`/playlist/${FIXTURE_IDS.playlist5000}`, phone);
      expect(response.status).toBe(200);
      expect(text.match(/<article [^>]*aria-posinset=/g)).toHaveLength(SERVER_RENDERED_ROWS.narrow);
      expect(response.headers.get('vary')).toContain('Sec-CH-UA-Mobile');
      // The client hydrates as many rows as the server rendered: its cache says for which screen.
      expect(stateOf(text)?.queries.some((q) => q.queryKey[0] === 'server-screen-class')).toBe(
        true,
      );
      // Its structured data lists the rows it shows, not the page's hundred.
      const listed = (html: string) => html.match(/"@type":"VideoObject"/g)?.length;
      expect(listed(text)).toBe(SERVER_RENDERED_ROWS.narrow);
      const desktop = await get(`/playlist/${FIXTURE_IDS.playlist5000}`, {
        headers: { 'sec-ch-ua-mobile': '?0' },
      });
      expect(desktop.text.match(/<article [^>]*aria-posinset=/g)).toHaveLength(
        SERVER_RENDERED_ROWS.wide,
      );
      expect(listed(desktop.text)).toBe(SERVER_RENDERED_ROWS.wide);
    },
  );

  it('gives each page its link preview, and a not-found view a 404', async () => {
    const meta = (html: string, key: string) =>
      new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"`).exec(html)?.[1];
    const { url, get: getFrom } = await serveExplorer({ PUBLIC_URL: 'https://explorer.example' });
    expect(url).toMatch(/^http:/);
    const { response, text } = await getFrom(`/playlist/${FIXTURE_IDS.playlist5000}`);
    expect(response.status).toBe(200);
    expect(text).toMatch(/<title>[^<]+ · Catalogue Explorer<\/title>/);
    expect(meta(text, 'description')).toMatch(/5,000 videos/);
    expect(meta(text, 'og:url')).toBe(
      `https://explorer.example/playlist/${FIXTURE_IDS.playlist5000}`,
    );
    expect(meta(text, 'og:image')).toMatch(/^https:\/\/explorer\.example\/cards\/.+\.png$/);
    expect(meta(text, 'twitter:card')).toBe('summary_large_image');
    expect(text).toContain(
      `<link rel="canonical" href="https://explorer.example/playlist/${FIXTURE_IDS.playlist5000}" />`,
    );

    const missing = await getFrom('/playlist/PLnoSuchPlaylistInTheCatalogue00');
    expect(missing.response.status).toBe(404);
    expect(missing.text).toContain('<title>Not found · Catalogue Explorer</title>');
  });

  it('has no demo entries and no thumbnails of its own with a remote upstream', async () => {
    expect((await get('/api/demo')).response.status).toBe(404);
    expect((await get('/thumbnails/vi/abc/mqdefault.jpg')).response.status).toBe(404);
  });
});

describe('injected faults', () => {
  // A fresh explorer: an upstream 429 holds all of its upstream calls for a while.
  let get: Awaited<ReturnType<typeof serveExplorer>>['get'];
  beforeAll(async () => {
    ({ get } = await serveExplorer());
  });

  it('maps the catalogue’s injected faults', async () => {
    const path = (n: number) =>
      lookupPath(
        'playlist',
        [
          FIXTURE_IDS.playlist100,
          FIXTURE_IDS.playlistEmpty,
          FIXTURE_IDS.playlist5000,
          FIXTURE_IDS.playlist101,
        ][n] ?? '',
      );
    await fixture.setFaults({ failNext: { count: 1, status: 500 } });
    expect(problemSchema.parse(JSON.parse((await get(path(0))).text)).code).toBe('upstream_error');
    // The failed page is now held back (its back-off): a repeat gets the same answer, uncalled.
    expect(problemSchema.parse(JSON.parse((await get(path(0))).text)).code).toBe('upstream_error');
    await fixture.setFaults({ failNext: { count: 1, status: 'malformed' } });
    expect(problemSchema.parse(JSON.parse((await get(path(3))).text)).code).toBe(
      'upstream_bad_response',
    );
    await fixture.setFaults({ failNext: { count: 1, status: 503 } });
    expect((await get(path(1))).response.status).toBe(200); // retried
    fixture.upstream.reset();
    await fixture.setFaults({ failNext: { count: 1, status: 429 }, retryAfterSeconds: 1 });
    const limited = await get(path(2));
    expect(limited.response.status).toBe(429);
    expect(limited.response.headers.get('retry-after')).toBe('1');
    expect(
      (await get(lookupPath('channel-playlists', FIXTURE_IDS.bigChannel))).response.status,
    ).toBe(429); // held back, not sent
    expect(fixture.upstream.hits()).toBe(1);
  });
});

describe('a just-started explorer', () => {
  it.skipIf(!hasServerBuild)(
    'is alive at once, renders a page that comes before its warm-up, and is ready after it',
    async () => {
      const { get, explorer } = await serveExplorer({}, { warmUp: false });
      expect((await get('/healthz')).response.status).toBe(200);
      const starting = await get('/readyz');
      expect(starting.response.status).toBe(503);
      expect(JSON.parse(starting.text)).toEqual({ status: 'starting' });
      // The renderer loads for this page's render, before the warm-up asks for it.
      const page = await get(`/playlist/${FIXTURE_IDS.playlist100}`);
      expect(page.text).toMatch(/<article [^>]*aria-posinset=/);
      await explorer.warmUp();
      expect(JSON.parse((await get('/readyz')).text)).toEqual({ status: 'ready' });
    },
  );
});

describe('wrong credentials', () => {
  it('are a 502 upstream_credentials_rejected, and /readyz says degraded', async () => {
    const { get } = await serveExplorer({ CATALOGUE_API_SECRET: 'wrong-secret' });
    const result = await get(lookupPath('playlist', FIXTURE_IDS.playlist100));
    expect(result.response.status).toBe(502);
    expect(problemSchema.parse(JSON.parse(result.text)).code).toBe('upstream_credentials_rejected');
    expect((await get('/readyz')).response.status).toBe(503);
  });
});

describe('with the embedded catalogue', () => {
  it('starts it on loopback, serves the demo entries and its thumbnails through this origin, and closes it', async () => {
    const before = logLines.length;
    // An empty base URL is the embedded mode, as in a .env file.
    const { get, close } = await serveExplorer({ CATALOGUE_BASE_URL: '' });
    const started = logLines
      .slice(before)
      .map((l) => JSON.parse(l) as { msg: string; url?: string })
      .find((l) => l.msg.startsWith('embedded catalogue started'));
    expect(started?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const demo = demoEntriesSchema.parse(JSON.parse((await get('/api/demo')).text));
    expect(demo.entries).toEqual(DEMO_ENTRIES);

    const page = endpoints.playlist.pageSchema.parse(
      JSON.parse((await get(lookupPath('playlist', FIXTURE_IDS.playlist100))).text),
    );
    const thumbnail = page.items[0]?.thumbnails[0]?.url ?? '';
    expect(thumbnail.startsWith('/thumbnails/')).toBe(true);
    const image = await get(thumbnail);
    expect(image.response.status).toBe(200);
    // The catalogue's JPEG, its type, caching and validator passed on; the security headers ours.
    expect(image.response.headers.get('content-type')).toBe('image/jpeg');
    expect(image.response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(image.response.headers.get('content-security-policy')).toContain("default-src 'self'");
    const etag = image.response.headers.get('etag') ?? '';
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await get(thumbnail, { headers: { 'If-None-Match': etag } });
    expect(again.response.status).toBe(304);
    expect(again.response.headers.get('etag')).toBe(etag);
    expect((await get('/thumbnails/vi/%3Cscript%3E/mqdefault.jpg')).response.status).toBe(404);

    await close();
    await expect(fetch(started?.url ?? '')).rejects.toThrow();
  });
});

describe.skipIf(!existsSync('dist/index.html'))('the built app, served', () => {
  it('holds no credential and no upstream header name in any file it serves', async () => {
    const { get } = await serveExplorer({ STATIC_ROOT: 'dist' });
    const files = readdirSync('dist', { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative('dist', join(entry.parentPath, entry.name)).split(sep).join('/'))
      .filter((path) => !path.split('/').some((part) => part.startsWith('.')));
    expect(files.length).toBeGreaterThan(5);
    for (const path of files) {
      const { response, text } = await get(`/${path}`);
      // Source maps stay on the server; compressed copies go out only as their file's coding
      // (static-files.ts).
      expect(response.status, path).toBe(/\.(map|br|gz)$/.test(path) ? 404 : 200);
      // The browser never sends credentials, so no script may even name the headers.
      expect(text, path).not.toMatch(/API-(Key|Secret)/i);
    }
    // A deep link's HTML, with its first page inside, goes through the same check (afterEach).
    const { response, text } = await get(`/playlist/${FIXTURE_IDS.playlist101}`);
    expect(response.status).toBe(200);
    expect(text).toContain('modulepreload');
  });
});
