import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_IDS } from '../../catalogue/demo-fixtures.ts';
import { TEST_TEMPLATE } from '../../test-support/app-shell.ts';
import {
  startExplorerFixture,
  type ExplorerEnv,
  type ExplorerFixture,
  type ServedExplorer,
} from '../../test-support/explorer-fixture.ts';
import { parseSamples, SCRAPE_TOKEN } from '../../test-support/metrics-scrape.ts';

// Chain warming in a whole explorer, as `npm start` configures it, in front of the embedded
// catalogue behind a proxy that counts every request reaching the upstream: a person's
// navigation to a playlist warms its chain, a reader's request merges into the warmer's,
// warming keeps to its share, and a preview, a bot, a HEAD or a refused request warm nothing.
// The test waits for what it needs (a figure the explorer reports, a count at the proxy),
// never a fixed time.

const BIG = FIXTURE_IDS.playlist5000; // 50 pages
const SMALL = FIXTURE_IDS.playlist101; // 2 pages

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/156.0.0.0 Safari/537.36';
/** What a browser sends when a person opens a link in a tab. */
const NAVIGATION = {
  'User-Agent': BROWSER,
  'Sec-Fetch-Dest': 'document',
  'Sec-Fetch-Mode': 'navigate',
  'Sec-Fetch-Site': 'none',
  'Sec-Fetch-User': '?1',
};
/** What the app's own requests for a page carry. */
const APP_FETCH = {
  'User-Agent': BROWSER,
  'Sec-Fetch-Dest': 'empty',
  'Sec-Fetch-Mode': 'cors',
  'Sec-Fetch-Site': 'same-origin',
};

let fixture: ExplorerFixture;
let staticRoot: string;
let explorer: ServedExplorer | undefined;

beforeAll(async () => {
  fixture = await startExplorerFixture();
  // The app's shell without a server build: views are answered 200 with their first page.
  staticRoot = mkdtempSync(join(tmpdir(), 'chain-warming-'));
  writeFileSync(join(staticRoot, 'index.html'), TEST_TEMPLATE);
});
afterEach(async () => {
  await explorer?.close();
  explorer = undefined;
  await fixture.reset();
});
afterAll(async () => {
  await fixture.close();
  rmSync(staticRoot, { recursive: true, force: true });
});

async function serve(env: ExplorerEnv = {}): Promise<ServedExplorer> {
  explorer = await fixture.serve({
    STATIC_ROOT: staticRoot,
    METRICS_TOKEN: SCRAPE_TOKEN,
    // Every request comes from 127.0.0.1: the allowance is for real visitors.
    CLIENT_RATE_LIMIT_BURST: '10000',
    // A view sent before its first page arrived starts no warming ('unread'); on a busy machine
    // a cold first page can miss a person's short wait, and the warming under test never start.
    FIRST_PAINT_WAIT_MS: '1000',
    ...env,
  });
  return explorer;
}

/** Upstream requests for a list's pages so far. */
const upstreamCalls = (id: string) =>
  fixture.upstream.requests.filter((r) => r.url.includes(`id=${id}`)).length;

/** Every sample of a metric family, by its labels. */
async function samples(name: string): Promise<Map<string, number>> {
  const response = await explorer!.get('/metrics', {
    headers: { Authorization: `Bearer ${SCRAPE_TOKEN}` },
  });
  const found = new Map<string, number>();
  for (const [key, value] of parseSamples(await response.text())) {
    if (key === name || key.startsWith(`${name}{`)) found.set(key.slice(name.length), value);
  }
  return found;
}
const metric = async (name: string, labels = '') => (await samples(name)).get(labels) ?? 0;

/** Waits until the warming has stopped, then checks that it stopped for `reason`. */
async function endedFor(reason: string): Promise<void> {
  let stops = new Map<string, number>();
  await expect
    .poll(
      async () => {
        stops = await samples('explorer_chain_warm_stopped_total');
        return [...stops.values()].some((count) => count >= 1);
      },
      { timeout: 30_000 },
    )
    .toBe(true);
  const seen = [...stops].filter(([, count]) => count >= 1).map(([labels]) => labels);
  expect(seen, 'why the warming stopped').toEqual([`{reason="${reason}"}`]);
}

// undici's `request` sends the headers as given (`fetch` puts its own Sec-Fetch-Mode on them).
async function open(
  id: string,
  headers: Record<string, string> = NAVIGATION,
  method: 'GET' | 'HEAD' = 'GET',
) {
  const response = await request(`${explorer!.url}/playlist/${id}`, { method, headers });
  await response.body.dump();
  return response.statusCode;
}

async function lookup(
  id: string,
  continuation?: string,
  headers: Record<string, string> = APP_FETCH,
) {
  const query = new URLSearchParams({ id });
  if (continuation !== undefined) query.set('continuation', continuation);
  const response = await request(`${explorer!.url}/api/v1/playlist?${query}`, { headers });
  const page =
    response.statusCode === 200
      ? ((await response.body.json()) as { continuation: string | null })
      : (await response.body.dump(), null);
  return { status: response.statusCode, cache: response.headers['x-cache'], page };
}

describe('chain warming', () => {
  it('warms a playlist behind a person who opened it, so that deep pages are in the cache', async () => {
    await serve();
    expect(await open(BIG)).toBe(200);
    await endedFor('end');
    expect(upstreamCalls(BIG)).toBe(50);
    // A drag to the end now meets every page in the cache, at no upstream call.
    let continuation = (await lookup(BIG)).page?.continuation ?? null;
    for (let page = 2; continuation !== null; page++) {
      const answer = await lookup(BIG, continuation);
      expect(answer, `page ${page}`).toMatchObject({ status: 200, cache: 'hit' });
      continuation = answer.page?.continuation ?? null;
    }
    expect(upstreamCalls(BIG)).toBe(50);
    expect(await metric('explorer_chain_warm_upstream_calls_total')).toBe(49);
    expect(await metric('explorer_chain_warm_pages_read_total')).toBe(49);
    expect(await metric('explorer_chain_warm_pages_total', '{source="fetched"}')).toBe(49);
  });

  it("merges a reader's request for a page the warmer is fetching into its call", async () => {
    await serve();
    // Page 1 cached (by a script: no warming), then a slow upstream for what follows.
    const first = await lookup(BIG, undefined, {});
    await fixture.setFaults({ latencyMs: 1500 });
    expect(await open(BIG)).toBe(200);
    // The warmer asks for page 2 as soon as the view is answered; the reader a moment later.
    await expect.poll(() => upstreamCalls(BIG), { timeout: 30_000 }).toBe(2);
    const continuation = first.page!.continuation!;
    const second = await lookup(BIG, continuation);
    expect(second).toMatchObject({ status: 200, cache: 'merged' });
    const asked = fixture.upstream.requests.filter((r) =>
      r.url.includes(`continuation=${encodeURIComponent(continuation)}`),
    );
    expect(asked).toHaveLength(1);
  });

  it('spends no more than its share of the hour', async () => {
    // A hundredth of 1,000 calls an hour: 10 calls.
    await serve({ CATALOGUE_QUOTA: '1000', CHAIN_WARM_SHARE: '0.01' });
    expect(await open(BIG)).toBe(200);
    await endedFor('share');
    expect(upstreamCalls(BIG)).toBe(1 + 10);
    expect(await samples('explorer_chain_warm_share')).toEqual(
      new Map([
        ['{of="budget"}', 10],
        ['{of="used"}', 10],
      ]),
    );
  });

  it('warms nothing for a link preview, a bot, a HEAD or a script', async () => {
    await serve();
    await open(BIG, { 'User-Agent': 'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)' });
    await open(BIG, { ...NAVIGATION, 'User-Agent': `${BROWSER} (compatible; Googlebot/2.1)` });
    await open(BIG, NAVIGATION, 'HEAD');
    await open(BIG, { ...NAVIGATION, 'Sec-Purpose': 'prefetch;prerender' });
    await lookup(BIG, undefined, { 'User-Agent': 'curl/8.5.0' });
    // Then a person opens another list: once its warming is under way, every request above
    // has been heard (in order) and started none.
    expect(await open(SMALL)).toBe(200);
    await endedFor('end');
    expect(await metric('explorer_chain_warm_started_total', '{how="started"}')).toBe(1);
    expect(upstreamCalls(BIG)).toBe(1);
    expect(upstreamCalls(SMALL)).toBe(2);
  });

  it('warms nothing for a request the per-client allowance refused', async () => {
    await serve({ CLIENT_RATE_LIMIT_BURST: '1', CLIENT_RATE_LIMIT_PER_SECOND: '0.001' });
    // A script spends the address's one call; then a person at that address opens a list.
    expect((await lookup(SMALL, undefined, {})).status).toBe(200);
    // The view cannot have its first page, so it answers the refusal's own status.
    expect(await open(BIG)).toBe(429);
    expect((await lookup(BIG)).status).toBe(429);
    // The warmer hears of a read as its answer goes out, before the client has it: by now,
    // it has heard of none, and counted neither a warming nor a skip.
    const heard = [...(await samples('explorer_chain_warm_started_total')).values()];
    expect(heard.reduce((sum, n) => sum + n, 0)).toBe(0);
    expect(upstreamCalls(BIG)).toBe(0);
  });

  it('is off with CHAIN_WARM_SHARE=0', async () => {
    await serve({ CHAIN_WARM_SHARE: '0' });
    expect(await open(SMALL)).toBe(200);
    expect((await lookup(SMALL)).status).toBe(200);
    // No warmer at all: nothing to report, and only the reader's own page was fetched.
    expect((await samples('explorer_chain_warm_lists')).size).toBe(0);
    expect((await samples('explorer_upstream_lookups_total')).size).toBeGreaterThan(0);
    expect(upstreamCalls(SMALL)).toBe(1);
  });
});
