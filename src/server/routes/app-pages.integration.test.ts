import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_IDS } from '../../catalogue/demo-fixtures.ts';
import { hasServerBuild, stateOf, TEST_TEMPLATE } from '../../test-support/app-shell.ts';
import {
  startExplorerFixture,
  type ExplorerEnv,
  type ExplorerFixture,
  type ServedExplorer,
} from '../../test-support/explorer-fixture.ts';
import { SERVER_RENDERED_ROWS } from '../../shared/app-render.ts';

// The app's pages of a whole explorer over real sockets, in front of the embedded catalogue and
// its fault switches (`/__faults`): what a page answers when the upstream fails (its problem's
// status, Retry-After, the view's error with Retry), how many renders a flood of URLs costs
// (the render histogram of /metrics), and what one client past its render allowance does to
// another. Needs the app's server build (`npm run build`); skipped without one.

const METRICS_TOKEN = 'render-test-token-0123456789';
const PLAYLIST = FIXTURE_IDS.playlist5000;
const CHANNEL = FIXTURE_IDS.smallChannel;

let fixture: ExplorerFixture;
let staticRoot: string;

beforeAll(async () => {
  fixture = await startExplorerFixture();
  staticRoot = mkdtempSync(join(tmpdir(), 'explorer-pages-'));
  writeFileSync(join(staticRoot, 'index.html'), TEST_TEMPLATE);
  // A copy, not a link: under Vitest's module runner, a server build imported through a link
  // can load some of its chunks twice (by the link's path and by the real one), and the app's
  // `instanceof ApiError` then fails across the two copies.
  if (hasServerBuild) cpSync(resolve('dist/.ssr'), join(staticRoot, '.ssr'), { recursive: true });
});
afterEach(() => fixture.reset());
afterAll(async () => {
  await fixture.close();
  rmSync(staticRoot, { recursive: true, force: true });
});

const serve = (env: ExplorerEnv = {}) =>
  fixture.serve({ STATIC_ROOT: staticRoot, METRICS_TOKEN, TRUST_PROXY: 'true', ...env });

/** A page as a browser asks for it, from `client` (X-Forwarded-For: the explorer trusts it). */
async function page(explorer: ServedExplorer, path: string, client = '198.51.100.9') {
  const response = await explorer.get(path, {
    headers: { accept: 'text/html', 'x-forwarded-for': client },
  });
  return { response, text: await response.text() };
}

/** The view's error, as the app shows a failed first page: a heading, what happened, Retry. */
function expectErrorView(text: string, heading: RegExp) {
  const alert = /<section role="alert"[^>]*>(.*?)<\/section>/s.exec(text)?.[1] ?? '';
  expect(alert).toMatch(heading);
  expect(alert).toMatch(/<button type="button"[^>]*>Retry<\/button>/);
  expect(text).toContain('<meta name="robots" content="noindex" />');
  expect(text).not.toContain('rel="canonical"');
  // The failed query travels to the client, so hydration meets the same view.
  expect(stateOf(text)?.queries[0]?.state.status).toBe('error');
}

describe.skipIf(!hasServerBuild)('a page whose upstream fails answers with a status', () => {
  it('a failing upstream: 502, then 503 while the breaker gives it a moment; 200 once it heals', async () => {
    const explorer = await serve({
      UPSTREAM_RETRIES: '0',
      BREAKER_THRESHOLD: '1',
      BREAKER_OPEN_MS: '1000',
      UPSTREAM_BACKOFF_MS: '500',
    });
    try {
      await fixture.setFaults({ failNext: { count: 1000, status: 500 } });
      const failed = await page(explorer, `/playlist/${PLAYLIST}?utm_source=mail`);
      expect(failed.response.status).toBe(502);
      expect(failed.response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(failed.response.headers.get('cache-control')).toBe('no-store');
      expect(Number(failed.response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expectErrorView(failed.text, /Catalogue error/);

      // The breaker is open: another list is not even asked for.
      const before = fixture.upstream.hits();
      const held = await page(explorer, `/channel/${CHANNEL}`);
      expect(held.response.status).toBe(503);
      expect(Number(held.response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expectErrorView(held.text, /Catalogue unavailable/);
      expect(fixture.upstream.hits()).toBe(before);

      // Healed: once the breaker's moment and the page's back-off are over, the rows.
      await fixture.reset();
      let healed = await page(explorer, `/playlist/${PLAYLIST}`);
      for (let tries = 0; healed.response.status !== 200 && tries < 40; tries++) {
        await sleep(100);
        healed = await page(explorer, `/playlist/${PLAYLIST}`);
      }
      expect(healed.response.status).toBe(200);
      expect(healed.text).toContain('rel="canonical"');
      expect(healed.text.match(/<article [^>]*aria-posinset=/g)?.length).toBe(
        SERVER_RENDERED_ROWS.wide,
      );
    } finally {
      await explorer.close();
    }
  });

  it('an upstream past its deadline: 504; merely slow (within it): 200 with the view loading', async () => {
    const explorer = await serve({ UPSTREAM_TIMEOUT_MS: '300', UPSTREAM_RETRIES: '0' });
    try {
      await fixture.setFaults({ latencyMs: 2000 });
      const late = await page(explorer, `/channel/${CHANNEL}/playlists`);
      expect(late.response.status).toBe(504);
      expectErrorView(late.text, /The catalogue is slow/);
    } finally {
      await explorer.close();
    }
    const patient = await serve();
    try {
      await fixture.setFaults({ latencyMs: 2000 });
      const started = Date.now();
      const slow = await page(patient, `/channel/${CHANNEL}/playlists`);
      expect(Date.now() - started).toBeLessThan(1900);
      expect(slow.response.status).toBe(200);
      expect(slow.text).toContain('rel="canonical"');
      expect(slow.text).toContain('Loading the channel’s playlists…');
    } finally {
      await patient.close();
    }
  });

  it('a person’s navigation does not wait for a slow first page; a crawler does, for the rows', async () => {
    const explorer = await serve();
    try {
      await fixture.setFaults({ latencyMs: 400 });
      // What a browser sends when a person opens a link (Fetch Metadata).
      const navigation = {
        accept: 'text/html',
        'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0.0.0 Safari/537.36',
        'sec-fetch-dest': 'document',
        'sec-fetch-mode': 'navigate',
        'sec-fetch-site': 'none',
      };
      const started = performance.now();
      // undici's `request` sends the headers as given (`fetch` puts its own Sec-Fetch-Mode on).
      const response = await request(`${explorer.url}/playlist/${PLAYLIST}`, {
        headers: navigation,
      });
      const text = await response.body.text();
      // The default wait (FIRST_PAINT_WAIT_MS, 50 ms), far short of the upstream's 400.
      expect(performance.now() - started).toBeLessThan(300);
      expect(response.statusCode).toBe(200);
      expect(text).toContain('rel="canonical"');
      expect(text).not.toMatch(/<article [^>]*aria-posinset=/);
      // Without scripts, the browser asks again once the page is likely in.
      expect(text).toContain('<noscript><meta http-equiv="refresh" content="2"></noscript>');

      // A link preview or a crawler (no Fetch Metadata) waits for the page, and has the rows.
      const crawled = await page(explorer, `/playlist/${FIXTURE_IDS.playlist101}`);
      expect(crawled.response.status).toBe(200);
      expect(crawled.text.match(/<article [^>]*aria-posinset=/g)?.length).toBe(
        SERVER_RENDERED_ROWS.wide,
      );
      expect(crawled.text).not.toContain('http-equiv="refresh"');
    } finally {
      await explorer.close();
    }
  });

  it('a person’s wait follows the upstream’s pace: none while it is slower than the wait, the whole wait once it is faster', async () => {
    const explorer = await serve({ FIRST_PAINT_WAIT_MS: '100' });
    /** A person's navigation: whether the view came with its rows. */
    const navigate = async (path: string) => {
      const response = await request(`${explorer.url}${path}`, {
        headers: {
          accept: 'text/html',
          'sec-fetch-dest': 'document',
          'sec-fetch-mode': 'navigate',
          'sec-fetch-site': 'none',
        },
      });
      expect(response.statusCode).toBe(200);
      return /<article [^>]*aria-posinset=/.test(await response.body.text());
    };
    try {
      // A remote upstream is expected at the real service's pace (150 ms), longer than the
      // 100 ms wait: the view goes out loading at once, without the rows that this upstream
      // (60 ms) would have brought within the wait.
      await fixture.setFaults({ latencyMs: 60 });
      expect(await navigate(`/playlist/${PLAYLIST}`)).toBe(false);

      // The upstream speeds up; lookups (an API reader following a chain) time it.
      await fixture.setFaults({ latencyMs: 10 });
      let continuation: string | null = null;
      for (let page = 0; page < 12; page++) {
        const query = new URLSearchParams({ id: FIXTURE_IDS.bigChannel });
        if (continuation) query.set('continuation', continuation);
        const response = await explorer.get(`/api/v1/channel-videos?${query}`);
        expect(response.status).toBe(200);
        ({ continuation } = (await response.json()) as { continuation: string | null });
      }
      // Now a page comes well within the wait: a person's view waits for it, with its rows.
      expect(await navigate(`/playlist/${FIXTURE_IDS.playlist101}`)).toBe(true);
    } finally {
      await explorer.close();
    }
  });

  it('an upstream asking the explorer to slow down: 429 with its Retry-After', async () => {
    const explorer = await serve({ UPSTREAM_RETRIES: '0' });
    try {
      await fixture.setFaults({
        retryAfterSeconds: 3,
        failNext: { count: 1, status: 429, endpoint: 'channel-videos' },
      });
      const limited = await page(explorer, `/channel/${CHANNEL}/videos`);
      expect(limited.response.status).toBe(429);
      expect(limited.response.headers.get('retry-after')).toBe('3');
      expectErrorView(limited.text, /Too many requests/);
      expect(limited.text).toContain('Try again in 3 seconds.');
    } finally {
      await explorer.close();
    }
  });

  it('an unknown list stays 404', async () => {
    const explorer = await serve();
    try {
      const missing = await page(explorer, '/playlist/PLnoSuchPlaylistAnywhere000000000');
      expect(missing.response.status).toBe(404);
    } finally {
      await explorer.close();
    }
  });
});

describe.skipIf(!hasServerBuild)('renders limited per client', () => {
  it('a client past its render allowance gets 429, and another client does not', async () => {
    const explorer = await serve({
      RENDER_RATE_LIMIT_BURST: '5',
      RENDER_RATE_LIMIT_PER_SECOND: '0.01',
    });
    try {
      const flooder = '198.51.100.1';
      const statuses: number[] = [];
      for (let index = 1; index <= 12; index++)
        statuses.push(
          (await page(explorer, `/playlist/${PLAYLIST}?index=${index}`, flooder)).response.status,
        );
      expect(statuses.filter((s) => s === 200)).toHaveLength(5);
      expect(statuses.slice(5).every((s) => s === 429)).toBe(true);
      const refused = await page(explorer, `/playlist/${PLAYLIST}?index=99`, flooder);
      expect(refused.response.status).toBe(429);
      expect(Number(refused.response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(refused.text).toContain('Too many requests');
      // Its own kept views still answer; another client's new views too.
      expect((await page(explorer, `/playlist/${PLAYLIST}?index=3`, flooder)).response.status).toBe(
        200,
      );
      expect(
        (await page(explorer, `/playlist/${PLAYLIST}?index=99`, '198.51.100.2')).response.status,
      ).toBe(200);
      const metrics = await (
        await explorer.get('/metrics', { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
      ).text();
      expect(metrics).toMatch(/^explorer_render_refusals_total 8$/m);
    } finally {
      await explorer.close();
    }
  });
});
