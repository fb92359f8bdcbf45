import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extract, setProviderList } from '@extractus/oembed-extractor';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_IDS } from '../../catalogue/demo-fixtures.ts';
import { oembedResponseSchema } from '../../shared/oembed.ts';
import { TEST_TEMPLATE } from '../../test-support/app-shell.ts';
import {
  startExplorerFixture,
  type ExplorerFixture,
  type ServedExplorer,
} from '../../test-support/explorer-fixture.ts';
import { realPageSource } from '../../test-support/real-page-source.ts';
import {
  pagesFrom,
  playlistInfo,
  playlistItem,
  startTestUpstream,
  type TestUpstream,
} from '../../test-support/test-upstream.ts';
import { createLogger } from '../observability/logger.ts';
import { createServerApp } from '../process/create-server-app.ts';

// The explorer as an oEmbed provider, over real sockets: an oEmbed consumer library embeds a
// list from its view's URL alone (and finds the same endpoint the view's head names), bad
// requests get the statuses the oEmbed spec names as problem documents, and upstream text
// reaches the snippet only as escaped attribute values.

const PLAYLIST = FIXTURE_IDS.playlist5000;
const CHANNEL = FIXTURE_IDS.bigChannel;

let fixture: ExplorerFixture;
let staticRoot: string;
let explorer: ServedExplorer;

beforeAll(async () => {
  fixture = await startExplorerFixture();
  staticRoot = mkdtempSync(join(tmpdir(), 'explorer-oembed-'));
  writeFileSync(join(staticRoot, 'index.html'), TEST_TEMPLATE);
  explorer = await fixture.serve({ STATIC_ROOT: staticRoot });
});
afterAll(async () => {
  await fixture.close();
  rmSync(staticRoot, { recursive: true, force: true });
});

const oembed = (query: Record<string, string>) =>
  explorer.get(`/oembed?${new URLSearchParams(query)}`);

describe('an oEmbed consumer', () => {
  it('embeds a playlist, a channel’s videos and its playlists from their URLs alone', async () => {
    // No registered provider: the library finds ours from each page's discovery link.
    setProviderList([]);
    const cases = [
      [`/playlist/${PLAYLIST}?index=2345`, `/embed/playlist/${PLAYLIST}`],
      [`/channel/${CHANNEL}`, `/embed/channel/${CHANNEL}`],
      [`/channel/${CHANNEL}/playlists`, `/embed/channel/${CHANNEL}/playlists`],
    ] as const;
    for (const [view, embed] of cases) {
      const data = (await extract(`${explorer.url}${view}`, { maxwidth: 400 })) as Record<
        string,
        unknown
      >;
      const body = oembedResponseSchema.parse(data);
      expect(body.type).toBe('rich');
      expect(body.width).toBe(400);
      expect(body.height).toBeLessThanOrEqual(600);
      expect(body.html).toContain(`src="${explorer.url}${embed}"`);
      expect(body.html).toMatch(/^<iframe [^<>]*><\/iframe>$/);
      expect(body.thumbnail_url).toMatch(new RegExp(`^${explorer.url}/cards/.+\\.png$`));
      expect(body.provider_url).toBe(`${explorer.url}/`);
      expect(data.method).toBe('auto-discovery');
    }
  });

  it('finds the provider from the view’s own head (discovery), which answers the same', async () => {
    const response = await explorer.get(`/playlist/${PLAYLIST}`, {
      headers: { accept: 'text/html' },
    });
    const html = await response.text();
    const href = /<link rel="alternate" type="application\/json\+oembed" href="([^"]+)"/.exec(
      html,
    )?.[1];
    expect(href).toBeDefined();
    const url = new URL(href!.replaceAll('&amp;', '&'));
    expect(url.origin + url.pathname).toBe(`${explorer.url}/oembed`);
    expect(url.searchParams.get('url')).toBe(`${explorer.url}/playlist/${PLAYLIST}`);
    const answer = await explorer.get(url.pathname + url.search);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toMatch(/max-age=\d+/);
    const body = oembedResponseSchema.parse(await answer.json());
    expect(body.title).toBe('Every talk, 2010–2026 🎤');
    expect(body.author_name).toBeTruthy();
  });
});

describe('bad requests', () => {
  const here = () => explorer.url;
  it.each([
    ['another site’s URL', () => ({ url: `https://elsewhere.example/playlist/${PLAYLIST}` }), 404],
    ['the home page', () => ({ url: `${here()}/` }), 404],
    ['a path that is no view', () => ({ url: `${here()}/no/such/page` }), 404],
    ['a malformed list ID', () => ({ url: `${here()}/playlist/not-an-id` }), 404],
    ['not a URL', () => ({ url: 'playlist please' }), 404],
    ['XML', () => ({ url: `${here()}/playlist/${PLAYLIST}`, format: 'xml' }), 501],
    ['no URL', () => ({ format: 'json' }), 400],
    ['a width that is no number', () => ({ url: `${here()}/`, maxwidth: 'wide' }), 400],
    // Consumers pass parameters of their own (theme, lang): ignored, as oEmbed expects.
    ['an unknown parameter', () => ({ url: `${here()}/`, theme: 'dark' }), 404],
  ])('%s: a problem document with the status oEmbed names', async (_, query, status) => {
    const response = await oembed(query());
    expect(response.status).toBe(status);
    expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(((await response.json()) as { status: number }).status).toBe(status);
  });

  it('an unknown list is a 404, for no more than the lookup of its first page', async () => {
    const before = fixture.upstream.hits();
    const url = `${explorer.url}/playlist/PLcatalogueDemoNoSuchList0000`;
    expect((await oembed({ url })).status).toBe(404);
    expect((await oembed({ url })).status).toBe(404);
    expect(fixture.upstream.hits() - before).toBe(1);
  });
});

describe('upstream text in the snippet', () => {
  let upstream: TestUpstream;
  beforeAll(async () => {
    upstream = await startTestUpstream(
      pagesFrom((url) =>
        url.pathname === '/api/v1/playlist'
          ? {
              info: {
                ...playlistInfo(url.searchParams.get('id') ?? ''),
                title: `"></iframe><script>alert(1)</script> \u202Eevil\u202C & 'more'`,
              },
              items: [playlistItem(1)],
              continuation: null,
            }
          : undefined,
      ),
    );
  });
  afterAll(() => upstream.close());

  it('is escaped: the snippet stays one iframe, and its title reads as the upstream sent it', async () => {
    const source = realPageSource(upstream.url);
    const app = createServerApp({
      pageSource: source.pageSource,
      upstream: source.upstream,
      staticSite: null,
      appHtml: null,
      logger: createLogger('silent'),
      publicUrl: 'https://explorer.example',
    });
    const response = await app.request(
      `/oembed?${new URLSearchParams({ url: 'https://explorer.example/playlist/PLhostileTitle0000000001' })}`,
    );
    expect(response.status).toBe(200);
    const body = oembedResponseSchema.parse(await response.json());
    expect(body.html.match(/<iframe/g)).toHaveLength(1);
    expect(body.html.match(/<\/iframe>/g)).toHaveLength(1);
    expect(body.html).not.toContain('<script');
    const title = /title="([^"]*)"/.exec(body.html)?.[1];
    const unescape = (text: string) =>
      text
        .replaceAll('&quot;', '"')
        .replaceAll('&#39;', "'")
        .replaceAll('&lt;', '<')
        .replaceAll('&gt;', '>')
        .replaceAll('&amp;', '&');
    expect(unescape(title ?? '')).toBe(body.title);
    expect(body.title).toContain('</iframe><script>');
    await source.close();
  });
});
