import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { translationsFor } from '../rendering/translations.ts';
import { FIXTURE_IDS } from '../../catalogue/demo-fixtures.ts';
import type { RenderApp } from '../../shared/app-render.ts';
import { PROBLEM_CONTENT_TYPE, problemSchema } from '../../shared/problem.ts';
import { builtRender, hasServerBuild, stateOf, testShell } from '../../test-support/app-shell.ts';
import { startExplorerFixture, type ExplorerFixture } from '../../test-support/explorer-fixture.ts';
import { realPageSource, type RealPageSource } from '../../test-support/real-page-source.ts';
import { createLogger } from '../observability/logger.ts';
import { createServerApp } from '../process/create-server-app.ts';
import { createClientRateLimit } from '../quota/client-rate-limit.ts';
import { createAppHtml } from '../rendering/app-html.ts';
import { createLinkPreviews } from '../rendering/link-preview.ts';

// The app's pages over the embedded catalogue (in this process, over loopback), the app's own
// server build rendering them when there is one (`npm run build`; a stand-in render otherwise):
// how many renders URLs cost, what each client may have, and what a kept render weighs.

const ORIGIN = 'https://explorer.example';
const PLAYLIST = FIXTURE_IDS.playlist5000;
const TEMPLATE = `<!doctype html><html><head><link rel="stylesheet" href="/assets/app.css"><!--app-head--><script type="module" src="/assets/app.js"></script></head><body><div id="root"><!--app-html--></div><!--app-state--></body></html>`;

let fixture: ExplorerFixture;
let built: RenderApp | null;
let source: RealPageSource | undefined;

beforeAll(async () => {
  fixture = await startExplorerFixture({ faultControl: false });
  built = hasServerBuild ? await builtRender() : null;
});
afterAll(() => fixture.close());
afterEach(async () => {
  await source?.close();
  source = undefined;
});

/** A stand-in for the app's render without a build: the path it was asked to render. */
const standIn: RenderApp = ({ url }) =>
  Promise.resolve({ head: '', html: `<main>${url.replaceAll('&', '&amp;')}</main>`, state: null });

function setup(options: { renderBurst?: number } = {}) {
  const pages = realPageSource(fixture.upstream.url, {
    apiKey: fixture.apiKey,
    apiSecret: fixture.apiSecret,
  });
  source = pages;
  const rendered: string[] = [];
  const render: RenderApp = (request) => {
    rendered.push(request.url);
    return (built ?? standIn)(request);
  };
  const logger = createLogger('silent');
  const app = createServerApp({
    pageSource: pages.pageSource,
    upstream: pages.upstream,
    staticSite: null,
    appHtml: createAppHtml(
      testShell(render, TEMPLATE),
      createLinkPreviews({ pageSource: pages.pageSource }),
      logger,
    ),
    logger,
    publicUrl: ORIGIN,
    renderLimit:
      options.renderBurst === undefined
        ? undefined
        : createClientRateLimit({ burst: options.renderBurst, perSecond: 0.001 }),
  });
  const get = async (
    path: string,
    {
      client = '192.0.2.1',
      headers = {},
    }: { client?: string; headers?: Record<string, string> } = {},
  ) => {
    const response = await app.request(
      path,
      { headers: { 'accept-encoding': 'br', accept: 'text/html', ...headers } },
      { incoming: { socket: { remoteAddress: client } } },
    );
    const body = Buffer.from(await response.arrayBuffer());
    const encoding = response.headers.get('content-encoding');
    const text = (
      encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body
    ).toString('utf8');
    return { response, body, text };
  };
  return { get, rendered, pages };
}

describe('renders keyed on what changes them', () => {
  it('1,000 URLs with different unknown parameters, 16 at a time: one render, one canonical URL', async () => {
    const { get, rendered } = setup();
    const etags = new Set<string | null>();
    const statuses = new Set<number>();
    const canonicals = new Set<string | undefined>();
    const other = { client: '198.51.100.2' };
    expect((await get(`/channel/${FIXTURE_IDS.smallChannel}`, other)).response.status).toBe(200);
    const hitsBefore = fixture.upstream.hits();
    // Meanwhile, another client's kept view answers as ever.
    const otherReads = (async () => {
      for (let n = 0; n < 20; n++)
        expect((await get(`/channel/${FIXTURE_IDS.smallChannel}`, other)).response.status).toBe(
          200,
        );
    })();
    for (let n = 0; n < 1000; n += 16) {
      await Promise.all(
        Array.from({ length: Math.min(16, 1000 - n) }, async (_, i) => {
          const { response, text } = await get(`/playlist/${PLAYLIST}?utm_source=${n + i}`);
          statuses.add(response.status);
          etags.add(response.headers.get('etag'));
          canonicals.add(/<link rel="canonical" href="([^"]*)"/.exec(text)?.[1]);
          expect(text).toContain(
            `<meta property="og:url" content="${ORIGIN}/playlist/${PLAYLIST}" />`,
          );
          expect(text).not.toContain('utm_source');
        }),
      );
    }
    await otherReads;
    expect([...statuses]).toEqual([200]);
    expect(rendered).toEqual([`/channel/${FIXTURE_IDS.smallChannel}`, `/playlist/${PLAYLIST}`]);
    expect(etags.size).toBe(1);
    expect([...canonicals]).toEqual([`${ORIGIN}/playlist/${PLAYLIST}`]);
    // The page itself was asked of the upstream once.
    expect(fixture.upstream.hits() - hitsBefore).toBeLessThanOrEqual(1);
  });

  it('what the view shows does change it: a deep link, the panel opening', async () => {
    const { get, rendered } = setup();
    await get(`/playlist/${PLAYLIST}?index=5`);
    await get(`/playlist/${PLAYLIST}?index=5&utm=1`);
    await get(`/playlist/${PLAYLIST}?q=jazz`);
    await get(`/playlist/${PLAYLIST}?sort=views&from=2`);
    expect(rendered).toEqual([`/playlist/${PLAYLIST}?index=5`, `/playlist/${PLAYLIST}?q=jazz`]);
  });

  it('the home box sent without scripts: 303 to what it names, else the home page with why, 400', async () => {
    const { get, rendered } = setup();
    const link = encodeURIComponent(`https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=${PLAYLIST}`);
    const opened = await get(`/?target=${link}`);
    expect(opened.response.status).toBe(303);
    expect(opened.response.headers.get('location')).toBe(`/playlist/${PLAYLIST}?v=dQw4w9WgXcQ`);
    // The explorer's own links, by the host its readers see.
    const own = await get(
      `/?target=${encodeURIComponent(`${ORIGIN}/channel/UCcatalogueDemoChannel01`)}`,
    );
    expect(own.response.headers.get('location')).toBe('/channel/UCcatalogueDemoChannel01');
    expect(rendered).toEqual([]);

    const refused = await get('/?target=not+a+list&utm=1');
    expect(refused.response.status).toBe(400);
    expect(refused.response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(rendered).toEqual(['/?target=not+a+list']);
    if (built) {
      expect(refused.text).toContain('value="not a list"');
      expect(refused.text).toContain('aria-invalid="true"');
    }
  });

  it('a path that reads as another host (`//`, `//host/x`) is a path of this origin: not found', async () => {
    const { get } = setup();
    for (const path of ['//', '//evil.example/x', '///playlist']) {
      const { response, text } = await get(path);
      expect(response.status, path).toBe(404);
      // Named, if at all, as a path of this origin (og:url, the not-found view's message).
      expect(text, path).not.toMatch(/(?:content|href)="(?:https?:)?\/\/evil/);
    }
  });

  it.skipIf(!hasServerBuild)(
    'links naming different choices of the panel render the same markup',
    async () => {
      // The key says "the panel opens" whatever its choices: the app's render must agree.
      const render = await builtRender();
      const { pages } = setup();
      const answer = await pages.pageSource.get(
        { endpoint: 'playlist', id: PLAYLIST, continuation: undefined },
        'test',
      );
      if (answer.kind !== 'page') throw new Error('no first page');
      const page = JSON.parse(answer.page.body.toString()) as unknown;
      const first = { endpoint: 'playlist' as const, id: PLAYLIST, page };
      const { locale, messages } = translationsFor('en');
      const as = (url: string) => render({ url, first, locale, messages, screen: 'wide' });
      const one = await as(`/playlist/${PLAYLIST}?q=jazz`);
      const other = await as(`/playlist/${PLAYLIST}?sort=views&from=2&to=9`);
      const shut = await as(`/playlist/${PLAYLIST}`);
      expect(one.html).toBe(other.html);
      expect(one.html).not.toBe(shut.html);
    },
  );
});

describe('renders limited per client', () => {
  it('past its allowance a client gets its kept renders, else 429; another client is untouched', async () => {
    const { get, rendered } = setup({ renderBurst: 3 });
    const flooder = { client: '198.51.100.1' };
    const other = { client: '198.51.100.2' };
    // Another client's view, rendered and kept before the flood.
    expect((await get(`/channel/${FIXTURE_IDS.smallChannel}`, other)).response.status).toBe(200);

    const statuses: number[] = [];
    for (let index = 1; index <= 10; index++)
      statuses.push((await get(`/playlist/${PLAYLIST}?index=${index}`, flooder)).response.status);
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429, 429, 429, 429]);

    // A view the flooder had rendered is kept: free, whatever its allowance says.
    const kept = await get(`/playlist/${PLAYLIST}?index=2&utm=x`, flooder);
    expect(kept.response.status).toBe(200);

    // The refusal, to a browser: the app's words for a 429, a wait, and Retry.
    const refused = await get(`/playlist/${PLAYLIST}?index=11&utm=x`, flooder);
    expect(refused.response.status).toBe(429);
    expect(refused.response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(refused.response.headers.get('cache-control')).toBe('no-store');
    const wait = Number(refused.response.headers.get('retry-after'));
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(refused.text).toContain(
      '<h1 class="text-xl font-semibold text-zinc-900 dark:text-zinc-50">Too many requests</h1>',
    );
    expect(refused.text).toContain(`Try again in `);
    expect(refused.text).toContain(`<a href="/playlist/${PLAYLIST}?index=11&amp;utm=x" class="`);
    expect(refused.text).toContain('<meta name="robots" content="noindex" />');
    expect(refused.text).toContain('<link rel="stylesheet" href="/assets/app.css">');
    expect(refused.text).not.toContain('<script');
    // To a script: the problem document.
    const script = await get(`/playlist/${PLAYLIST}?index=12`, {
      ...flooder,
      headers: { accept: '*/*' },
    });
    expect(script.response.status).toBe(429);
    expect(script.response.headers.get('content-type')).toBe(PROBLEM_CONTENT_TYPE);
    expect(problemSchema.parse(JSON.parse(script.text))).toMatchObject({
      code: 'rate_limited',
      status: 429,
      retryAfter: Number(script.response.headers.get('retry-after')),
    });

    // The other client: its kept view, and a new one, as ever.
    expect((await get(`/channel/${FIXTURE_IDS.smallChannel}`, other)).response.status).toBe(200);
    expect((await get(`/playlist/${PLAYLIST}?index=40`, other)).response.status).toBe(200);
    expect(rendered).toHaveLength(5);
  });
});

describe('a render kept compactly', () => {
  it('the playlist view is kept as its brotli copy: a tenth of its HTML, charged to its page', async () => {
    const { get, pages } = setup();
    // The page first, as the API reads it: then the render alone is what the entry gains.
    await pages.pageSource.get(
      { endpoint: 'playlist', id: PLAYLIST, continuation: undefined },
      'x',
    );
    const pageOnly = pages.cache.stats().bytes;
    const br = await get(`/playlist/${PLAYLIST}`);
    const withRender = pages.cache.stats().bytes;
    const kept = withRender - pageOnly;
    expect(br.response.headers.get('content-encoding')).toBe('br');
    expect(kept).toBeGreaterThan(br.body.length);
    // Beyond the brotli copy: its record, validator and key, and the preview's tags kept for
    // the next answer (this playlist's, with Korean and emoji, take two bytes a character).
    expect(kept - br.body.length).toBeLessThan(8192);
    if (hasServerBuild) {
      expect(br.text.length).toBeGreaterThan(150_000);
      expect(kept).toBeLessThan(br.text.length / 8);
    }

    // Other codings give the same HTML: gzip is made once and kept (charged), identity is not.
    const gzip = await get(`/playlist/${PLAYLIST}`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.response.headers.get('content-encoding')).toBe('gzip');
    expect(gzip.text).toBe(br.text);
    await new Promise((done) => setImmediate(done));
    expect(pages.cache.stats().bytes).toBeGreaterThan(withRender + gzip.body.length);
    const withGzip = pages.cache.stats().bytes;
    const identity = await get(`/playlist/${PLAYLIST}`, {
      headers: { 'accept-encoding': 'identity' },
    });
    expect(identity.response.headers.get('content-encoding')).toBeNull();
    expect(identity.text).toBe(br.text);
    expect(pages.cache.stats().bytes).toBe(withGzip);
    // One validator per coding of the same bytes; any of them is current.
    const etag = br.response.headers.get('etag')!;
    expect(gzip.response.headers.get('etag')).not.toBe(etag);
    const again = await get(`/playlist/${PLAYLIST}`, { headers: { 'if-none-match': etag } });
    expect(again.response.status).toBe(304);
    expect(stateOf(identity.text) === null).toBe(!hasServerBuild);
  });
});
