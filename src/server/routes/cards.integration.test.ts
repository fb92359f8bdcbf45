import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import createMetascraper from 'metascraper';
import metascraperDescription from 'metascraper-description';
import metascraperImage from 'metascraper-image';
import metascraperTitle from 'metascraper-title';
import metascraperUrl from 'metascraper-url';
import ogs from 'open-graph-scraper';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_IDS } from '../../catalogue/demo-fixtures.ts';
import { endpoints } from '../../shared/endpoints.ts';
import { TEST_TEMPLATE } from '../../test-support/app-shell.ts';
import {
  startExplorerFixture,
  type ExplorerFixture,
  type ServedExplorer,
} from '../../test-support/explorer-fixture.ts';

// Preview cards and what unfurlers read, over real sockets: each view's head read by two
// independent unfurling libraries (open-graph-scraper and metascraper), the card they name
// fetched and measured; what a card costs the upstream (counted by the fixture's proxy), its
// validator, and that it changes with the list's data.

const metascraper = createMetascraper([
  metascraperTitle(),
  metascraperDescription(),
  metascraperImage(),
  metascraperUrl(),
]);

const PLAYLIST = FIXTURE_IDS.playlist5000;
const CHANNEL = FIXTURE_IDS.bigChannel;

let fixture: ExplorerFixture;
let staticRoot: string;
/** With its own embedded catalogue, whose thumbnails the cards draw. */
let embedded: ServedExplorer;
/** In front of the fixture's counting proxy. */
let counted: ServedExplorer;

beforeAll(async () => {
  fixture = await startExplorerFixture();
  staticRoot = mkdtempSync(join(tmpdir(), 'explorer-cards-'));
  writeFileSync(join(staticRoot, 'index.html'), TEST_TEMPLATE);
  embedded = await fixture.serve({ STATIC_ROOT: staticRoot, CATALOGUE_BASE_URL: '' });
  counted = await fixture.serve({ STATIC_ROOT: staticRoot });
});
afterAll(async () => {
  await fixture.close();
  rmSync(staticRoot, { recursive: true, force: true });
});

async function html(explorer: ServedExplorer, path: string): Promise<string> {
  const response = await explorer.get(path, { headers: { accept: 'text/html' } });
  expect(response.status).toBe(200);
  return response.text();
}

async function card(explorer: ServedExplorer, url: string, init?: RequestInit) {
  const response = await explorer.get(new URL(url).pathname + new URL(url).search, init);
  const body = Buffer.from(await response.arrayBuffer());
  return { response, body };
}

describe('every view unfurls with its own card', () => {
  it.each([
    ['home', '/'],
    ['a playlist', `/playlist/${PLAYLIST}`],
    ['item 2,345 of a playlist', `/playlist/${PLAYLIST}?index=2345`],
    ['a channel’s videos', `/channel/${CHANNEL}`],
    ['a channel’s playlists', `/channel/${CHANNEL}/playlists`],
  ])('%s: two unfurlers agree, and the card is a 1200×630 PNG', async (_, path) => {
    const page = await html(embedded, path);
    const url = `${embedded.url}${path}`;
    const [{ result: og }, meta] = await Promise.all([
      ogs({ html: page }),
      metascraper({ html: page, url }),
    ]);
    expect(og.success).toBe(true);
    expect(og.ogTitle).toBeTruthy();
    expect(meta.title).toBe(og.ogTitle);
    expect(og.ogDescription).toBeTruthy();
    expect(meta.description).toBe(og.ogDescription);
    const image = og.ogImage?.[0];
    expect(image?.url).toMatch(new RegExp(`^${embedded.url}/cards/.+\\.png(\\?index=\\d+)?$`));
    expect(meta.image).toBe(image?.url);
    expect(og.twitterImage?.[0]?.url).toBe(image?.url);

    // A list's view names its oEmbed provider, for its own URL; the home page is no list.
    const discovery = /<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/.exec(
      page,
    )?.[1];
    if (path === '/') expect(discovery).toBeUndefined();
    else
      expect(discovery?.replaceAll('&amp;', '&')).toMatch(
        new RegExp(`^${embedded.url}/oembed\\?url=`),
      );

    const { response, body } = await card(embedded, image!.url);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(body.length).toBeLessThanOrEqual(200 * 1024);
    const { width, height, format } = await sharp(body).metadata();
    expect({ width, height, format }).toEqual({ width: 1200, height: 630, format: 'png' });
  });
});

describe('a card', () => {
  it('is drawn once, then answered with its validator (304 while it stands)', async () => {
    const path = `/cards/playlist/${PLAYLIST}.png`;
    const first = await embedded.get(path);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers.get('cache-control')).toMatch(/max-age=\d+/);
    await first.arrayBuffer();
    const again = await embedded.get(path, { headers: { 'if-none-match': etag! } });
    expect(again.status).toBe(304);
    expect((await embedded.get(path)).headers.get('etag')).toBe(etag);
  });

  it('of an unknown list is not drawn, and costs no more than the one lookup a preview makes', async () => {
    const before = fixture.upstream.hits();
    const response = await counted.get('/cards/playlist/PLcatalogueDemoNoSuchList0000.png');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(fixture.upstream.hits() - before).toBe(1);
    // The upstream's answer is remembered: asking again costs nothing.
    expect((await counted.get('/cards/playlist/PLcatalogueDemoNoSuchList0000.png')).status).toBe(
      404,
    );
    expect(fixture.upstream.hits() - before).toBe(1);
  });

  it('of item N on a cold server reads the first page only, and changes once N’s page is read', async () => {
    const list = FIXTURE_IDS.playlist101;
    const before = fixture.upstream.hits();
    const cold = await counted.get(`/cards/playlist/${list}.png?index=101`);
    expect(cold.status).toBe(200);
    await cold.arrayBuffer();
    expect(fixture.upstream.hits() - before).toBe(1);

    // A reader scrolls on: the API reads page 2, which holds item 101.
    const firstPage = (await (
      await counted.get(`${endpoints.playlist.path}?id=${list}`)
    ).json()) as { continuation: string };
    const second = await counted.get(
      `${endpoints.playlist.path}?${new URLSearchParams({ id: list, continuation: firstPage.continuation })}`,
    );
    expect(second.status).toBe(200);
    const warm = await counted.get(`/cards/playlist/${list}.png?index=101`);
    expect(warm.status).toBe(200);
    expect(warm.headers.get('etag')).not.toBe(cold.headers.get('etag'));
    expect(fixture.upstream.hits() - before).toBe(2);
  });

  it('new cards are limited per client as renders are: kept ones stay free, others unaffected', async () => {
    const limited = await fixture.serve({
      STATIC_ROOT: staticRoot,
      TRUST_PROXY: 'true',
      RENDER_RATE_LIMIT_BURST: '3',
      RENDER_RATE_LIMIT_PER_SECOND: '0.01',
    });
    const ask = (index: number, client: string) =>
      limited.get(`/cards/playlist/${PLAYLIST}.png?index=${index}`, {
        headers: { 'x-forwarded-for': client },
      });
    const hungry = '198.51.100.7';
    for (const index of [1, 2, 3]) {
      const response = await ask(index, hungry);
      expect(response.status).toBe(200);
      await response.arrayBuffer();
    }
    const refused = await ask(4, hungry);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    // A card already drawn answers the same client; another client draws its own.
    expect((await ask(2, hungry)).status).toBe(200);
    expect((await ask(4, '198.51.100.8')).status).toBe(200);
  });

  it.each([
    '/cards/playlist/not-an-id.png',
    `/cards/playlist/${PLAYLIST}`,
    `/cards/playlist/${PLAYLIST}.jpg`,
    '/cards/nowhere.png',
    '/cards/.png',
    `/cards/channel/${CHANNEL}/nothing.png`,
  ])('at a malformed address %s is a 404 problem', async (path) => {
    const response = await counted.get(path);
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});
