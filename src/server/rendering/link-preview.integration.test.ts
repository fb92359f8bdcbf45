import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LOCALES } from '../../shared/locales.ts';
import { FIXTURE_IDS } from '../../catalogue/demo-fixtures.ts';
import type { PlaylistPage } from '../../shared/catalogue-schema.ts';
import { listForUrl } from '../../shared/app-routes.ts';
import {
  continuationAfter,
  FIRST_LIST_THUMBNAILS,
  GUEST_ID,
  GUEST_TITLE,
  itemThumbnails,
  itemTitle,
  NEWEST_VIDEO_THUMBNAILS,
  OWNER_ID,
  OWNER_TITLE,
  PLAYLIST_DESCRIPTION,
  PLAYLIST_ID,
  PLAYLIST_SIZE,
  PLAYLIST_THUMBNAILS,
  PLAYLIST_TITLE,
  previewCataloguePage,
  UNKNOWN_CHANNEL_ID,
  UNKNOWN_PLAYLIST_ID,
} from '../../test-support/preview-fixtures.ts';
import { startExplorerFixture, type ExplorerFixture } from '../../test-support/explorer-fixture.ts';
import { realPageSource, type RealPageSource } from '../../test-support/real-page-source.ts';
import {
  pagesFrom,
  startTestUpstream,
  type TestUpstream,
} from '../../test-support/test-upstream.ts';
import { createChannelTitles, type ChannelTitles } from './channel-titles.ts';
import { cardPath } from '../cards/card-address.ts';
import {
  createLinkPreviews,
  renderHead,
  type FirstPage,
  type LinkPreviews,
} from './link-preview.ts';
import type { PageSource } from '../pages/page-source.ts';

// Link previews over a real page source (cache, merging, allowance, upstream client) talking
// HTTP to the test upstream, which serves a small catalogue whose every title carries quotes,
// `<`, `&`, `'` and emoji (preview-fixtures.ts). The first page reaches `headFor` the way the
// app's page route gets it; the head is then read back tag by tag, each value unescaped and
// compared with what the catalogue said, and the raw text checked for anything unescaped.

const ORIGIN = 'https://explorer.example.com';
const SITE = 'Catalogue Explorer';

let upstream: TestUpstream;
let source: RealPageSource;
let pageSource: PageSource;
let channelTitles: ChannelTitles;
let previews: LinkPreviews;

beforeAll(async () => {
  upstream = await startTestUpstream(pagesFrom(previewCataloguePage));
});
afterAll(() => upstream.close());

/** A fresh explorer (empty cache and index) per test, so each test says what it has seen. */
function freshExplorer() {
  channelTitles = createChannelTitles();
  source = realPageSource(upstream.url, { onPage: channelTitles.learnFromPage });
  pageSource = source.pageSource;
  previews = createLinkPreviews({ pageSource, channelTitles });
  upstream.reset();
}
afterEach(() => source?.close());

/** The first page as the app's page route (routes/app-pages.ts) gets it for `url`. */
async function firstPageFor(url: URL): Promise<FirstPage> {
  const list = listForUrl(url.pathname, url.searchParams);
  if (list === null) return { kind: 'none' };
  const answer = await pageSource.get({ ...list, continuation: undefined }, 'test-client');
  if (answer.kind === 'page') return { kind: 'page', list, page: answer.page };
  return answer.status === 404 || answer.status === 400 ? { kind: 'not-found' } : { kind: 'none' };
}

/** The API's lookup of a playlist page: what puts it in the cache. */
const readPage = (continuation?: string) =>
  pageSource.get({ endpoint: 'playlist', id: PLAYLIST_ID, continuation }, 'test-client');

interface Head {
  title: string;
  canonical: string | undefined;
  meta: Record<string, string>;
  /** The JSON-LD blocks (structured-data.ts), parsed. */
  jsonLd: Array<Record<string, unknown>>;
  /** The oEmbed discovery link's href. */
  oembed?: string;
  /** og:locale:alternate, in order. */
  alternates: string[];
  /** The feeds named for autodiscovery: type and href. */
  feeds: Array<{ type: string; href: string }>;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" };
const unescape = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ENTITIES[name] as string);

/**
 * Reads the head back. Every line must be one of the expected tags, with no `<`, `>` or `"`
 * inside a value and no `'` anywhere: anything from outside came out escaped.
 */
function readHead(head: string): Head {
  const LINE =
    /^(?:<title>([^<>]*)<\/title>|<meta (name|property)="([a-z:_]+)" content="([^"<>]*)" \/>|<link rel="canonical" href="([^"<>]*)" \/>)$/;
  const JSON_LD = /^<script type="application\/ld\+json">([^<>]*)<\/script>$/;
  const OEMBED =
    /^<link rel="alternate" type="application\/json\+oembed" href="([^"<>]*)" title="([^"<>]*)" \/>$/;
  expect(head).not.toContain("'");
  const read: Head = {
    title: '',
    canonical: undefined,
    meta: {},
    jsonLd: [],
    alternates: [],
    feeds: [],
  };
  const FEED =
    /^<link rel="alternate" type="(application\/atom\+xml|application\/rss\+xml|application\/feed\+json)" href="([^"<>]*)" title="[^"<>]*" \/>$/;
  for (const line of head.split('\n')) {
    const feed = FEED.exec(line);
    if (feed) {
      read.feeds.push({ type: feed[1]!, href: unescape(feed[2]!) });
      continue;
    }
    const oembed = OEMBED.exec(line);
    if (oembed) {
      expect(read.oembed, 'oEmbed discovery once').toBeUndefined();
      read.oembed = unescape(oembed[1] ?? '');
      continue;
    }
    const data = JSON_LD.exec(line)?.[1];
    if (data !== undefined) {
      read.jsonLd.push(JSON.parse(data) as Record<string, unknown>);
      continue;
    }
    const match = LINE.exec(line);
    if (!match) throw new Error(`unexpected line in the head: ${line}`);
    const [, title, , name, content, canonical] = match;
    if (title !== undefined) read.title = unescape(title);
    if (canonical !== undefined) read.canonical = unescape(canonical);
    if (name === 'og:locale:alternate') {
      read.alternates.push(content ?? '');
    } else if (name !== undefined) {
      expect(read.meta[name], `${name} once`).toBeUndefined();
      read.meta[name] = unescape(content ?? '');
    }
  }
  return read;
}

interface Expected {
  documentTitle: string;
  title: string;
  description: string | RegExp;
  /** og:url; also the canonical unless `notFound`. */
  url: string;
  /** The thumbnail the view's card shows: when there is one, the view has a card. */
  image?: { url: string; width: number; height: number };
  /** The card's path when not the view's own (`cardOf`); null: none. */
  card?: string | null;
  notFound?: boolean;
}

/** The card of a view's URL: its path, and `index` when it names one of the playlist's items. */
function cardOf(url: string): string {
  const { pathname, searchParams } = new URL(url);
  const index = Number(searchParams.get('index'));
  return cardPath(pathname, index >= 1 && index <= PLAYLIST_SIZE ? index : undefined);
}

/** Every field of the preview: title, description, canonical, Open Graph, Twitter card. */
function expectPreview(head: string, expected: Expected) {
  const read = readHead(head);
  expect(read.title).toBe(expected.documentTitle);
  const { meta } = read;
  if (typeof expected.description === 'string') expect(meta.description).toBe(expected.description);
  else expect(meta.description).toMatch(expected.description);
  // A list's view names its feeds (the channel's videos for either tab); nothing else has any.
  const list = /^\/(playlist|channel)\/([^/?]+)/.exec(new URL(expected.url).pathname);
  if (expected.notFound || list === null) expect(read.feeds).toEqual([]);
  else
    expect(read.feeds.map((feed) => feed.href)).toEqual(
      ['atom', 'rss', 'json'].map(
        (extension) => `${ORIGIN}/feeds/${list[1]}/${list[2]}.${extension}`,
      ),
    );
  if (expected.notFound) {
    expect(read.canonical).toBeUndefined();
    expect(meta.robots).toBe('noindex');
  } else {
    expect(read.canonical).toBe(expected.url);
    expect(meta.robots).toBeUndefined();
  }
  expect(meta['og:site_name']).toBe(SITE);
  expect(meta['og:type']).toBe('website');
  expect(meta['og:title']).toBe(expected.title);
  expect(meta['og:description']).toBe(meta.description);
  expect(meta['og:url']).toBe(expected.url);
  // English (the default), and every other language the view can be read in.
  expect(meta['og:locale']).toBe('en_US');
  expect(read.alternates).toHaveLength(LOCALES.length - 1);
  expect(read.alternates).not.toContain('en_US');
  expect(meta['twitter:card']).toBe('summary_large_image');
  expect(meta['twitter:title']).toBe(expected.title);
  expect(meta['twitter:description']).toBe(meta.description);
  const card =
    expected.card === undefined ? (expected.image ? cardOf(expected.url) : null) : expected.card;
  if (card !== null) {
    // The view's card: a PNG at the size unfurlers ask for, described by the title.
    const absolute = `${ORIGIN}${card}`;
    expect(meta['og:image']).toBe(absolute);
    expect(meta['twitter:image']).toBe(absolute);
    expect(meta['og:image:type']).toBe('image/png');
    expect(meta['og:image:width']).toBe('1200');
    expect(meta['og:image:height']).toBe('630');
    expect(meta['og:image:alt']).toBe(expected.title);
    expect(meta['twitter:image:alt']).toBe(expected.title);
  } else {
    expect(meta['og:image']).toBeUndefined();
    expect(meta['twitter:image']).toBeUndefined();
  }
}

/** The thumbnail a view's preview (and so its card) shows. */
async function imageFor(path: string) {
  const url = new URL(path, 'http://internal');
  return previews.previewFor(url, await firstPageFor(url)).image;
}

/** The head for `path`, its first page fetched as the page route does. */
async function headFor(path: string): Promise<string> {
  const url = new URL(path, 'http://internal');
  return previews.headFor(url, ORIGIN, await firstPageFor(url));
}

const LARGEST_PLAYLIST_THUMBNAIL = PLAYLIST_THUMBNAILS[1]!;
const playlistUrl = `${ORIGIN}/playlist/${PLAYLIST_ID}`;
const playlistDescription = new RegExp(
  `^${OWNER_TITLE.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} · 250 videos — Every song .+…$`,
);
const playlistPreview = (url = playlistUrl): Expected => ({
  documentTitle: `${PLAYLIST_TITLE} · ${SITE}`,
  title: PLAYLIST_TITLE,
  description: playlistDescription,
  url,
  image: LARGEST_PLAYLIST_THUMBNAIL,
});

describe('a playlist', () => {
  it('previews its title, channel, video count, description and largest thumbnail', async () => {
    freshExplorer();
    const head = await headFor(`/playlist/${PLAYLIST_ID}`);
    expectPreview(head, playlistPreview());
    // Escaped in element text and attribute values alike; emoji as they are.
    expect(head).toContain(
      '<title>Rock &amp; Roll &quot;Classics&quot; &lt;Live&gt; — Tom&#39;s picks 🎸🔥 · Catalogue Explorer</title>',
    );
    expect(head).toContain(
      'content="Rock &amp; Roll &quot;Classics&quot; &lt;Live&gt; — Tom&#39;s picks 🎸🔥"',
    );
    // The card's URL on the public origin; its picture is the list's largest thumbnail.
    expect(head).toContain(
      `<meta property="og:image" content="${ORIGIN}/cards/playlist/${PLAYLIST_ID}.png" />`,
    );
    expect(await imageFor(`/playlist/${PLAYLIST_ID}`)).toEqual(LARGEST_PLAYLIST_THUMBNAIL);
    // Structured data: the first page's 100 videos at their positions, and channel → list.
    const [list, crumbs] = readHead(head).jsonLd;
    expect(list).toMatchObject({ '@type': 'ItemList', name: PLAYLIST_TITLE, numberOfItems: 250 });
    const elements = list?.itemListElement as Array<{ position: number; item: { name: string } }>;
    expect(elements.map((element) => element.position)).toEqual(
      Array.from({ length: 100 }, (_, i) => i + 1),
    );
    expect(elements[41]?.item.name).toBe(itemTitle(42));
    expect(crumbs).toMatchObject({
      '@type': 'BreadcrumbList',
      itemListElement: [
        { position: 1, name: OWNER_TITLE, item: `${ORIGIN}/channel/${OWNER_ID}` },
        { position: 2, name: PLAYLIST_TITLE, item: playlistUrl },
      ],
    });
  });

  it('cuts a long description at a word boundary, about 200 characters, with an ellipsis', async () => {
    freshExplorer();
    const { meta } = readHead(await headFor(`/playlist/${PLAYLIST_ID}`));
    const cut = (meta.description ?? '').split(' — ')[1] ?? '';
    expect(PLAYLIST_DESCRIPTION.length).toBeGreaterThan(250);
    expect(cut.length).toBeLessThanOrEqual(201);
    expect(cut.length).toBeGreaterThan(150);
    expect(cut.endsWith('…')).toBe(true);
    const kept = cut.slice(0, -1);
    expect(PLAYLIST_DESCRIPTION.startsWith(kept)).toBe(true);
    expect(PLAYLIST_DESCRIPTION[kept.length]).toMatch(/[\s,;]/);
  });

  it.each([
    ['the platform’s /playlist?list=', `/playlist?list=${PLAYLIST_ID}&feature=share`, ''],
    ['a trailing slash and unknown parameters', `/playlist/${PLAYLIST_ID}/?utm_source=x`, ''],
    [
      'the platform’s /watch?v=&list=&index=',
      `/watch?v=dQw4w9WgXcQ&list=${PLAYLIST_ID}&index=999&t=42s`,
      '?index=999',
    ],
    [
      'the platform’s /watch?v=&list= (opens at the video)',
      `/watch?v=dQw4w9WgXcQ&list=${PLAYLIST_ID}`,
      '?v=dQw4w9WgXcQ',
    ],
  ])('%s: og:url and canonical in the explorer’s own form', async (_, path, query) => {
    freshExplorer();
    expectPreview(await headFor(path), playlistPreview(`${playlistUrl}${query}`));
  });

  it('with its first page not at hand: what the cache knows, else "Playlist <id>", never an upstream call', async () => {
    freshExplorer();
    const url = new URL(`/playlist/${PLAYLIST_ID}?index=3`, 'http://internal');
    expectPreview(previews.headFor(url, ORIGIN, { kind: 'none' }), {
      documentTitle: `Playlist · ${SITE}`,
      title: `Playlist ${PLAYLIST_ID}`,
      description: `A playlist of videos, to browse in ${SITE}.`,
      url: `${playlistUrl}?index=3`,
    });
    expect(previews.previewFor(url, { kind: 'none' }).complete).toBe(false);
    expect(upstream.hits()).toBe(0);

    await readPage();
    expectPreview(
      previews.headFor(new URL(`/playlist/${PLAYLIST_ID}`, 'http://x'), ORIGIN, { kind: 'none' }),
      playlistPreview(),
    );
    expect(upstream.hits()).toBe(1);
  });
});

describe('a playlist at ?index=N', () => {
  const itemPreview = (n: number): Expected => ({
    documentTitle: `${PLAYLIST_TITLE} · ${SITE}`,
    title: itemTitle(n),
    description: `#${n} of ${PLAYLIST_SIZE} in ${PLAYLIST_TITLE}`,
    url: `${playlistUrl}?index=${n}`,
    image: itemThumbnails(n)[1],
  });

  it('previews item N when the pages up to it are cached, counting items along the chain', async () => {
    freshExplorer();
    // The API's reads put the first two pages (100 and 50 items) in the cache.
    await readPage();
    await readPage(continuationAfter(1));
    const hits = upstream.hits();
    for (const n of [1, 100, 101, 137, 150]) {
      const head = await headFor(`/playlist/${PLAYLIST_ID}?index=${n}`);
      expectPreview(head, itemPreview(n));
      expect(head).toContain(
        `content="Song ${n}: &quot;Hey&quot; &lt;b&gt;you&lt;/b&gt; &amp; &#39;me&#39; 🎵"`,
      );
    }
    // The item's thumbnail URL had a quote in its query: percent-encoded by URL, then escaped.
    expect((await imageFor(`/playlist/${PLAYLIST_ID}?index=2`))?.url).toBe(
      'https://i.example.com/vi/2/maxres.jpg?s=1&t="x"',
    );
    // Reading the cache spent nothing.
    expect(upstream.hits()).toBe(hits);
  });

  it('while the page holding item N is not cached: the playlist, "#N of TOTAL", and no fetch', async () => {
    freshExplorer();
    await readPage();
    await readPage(continuationAfter(1));
    const hits = upstream.hits();
    const head = await headFor(`/playlist/${PLAYLIST_ID}?index=151`);
    expectPreview(head, {
      ...playlistPreview(`${playlistUrl}?index=151`),
      description: `#151 of ${PLAYLIST_SIZE} in ${PLAYLIST_TITLE}`,
    });
    expect(upstream.hits()).toBe(hits);
    const url = new URL(`/playlist/${PLAYLIST_ID}?index=151`, 'http://x');
    expect(previews.previewFor(url, await firstPageFor(url)).complete).toBe(false);

    // Once a reader has scrolled there, the same URL previews the item.
    await readPage(continuationAfter(2));
    expectPreview(await headFor(`/playlist/${PLAYLIST_ID}?index=151`), itemPreview(151));
    expectPreview(await headFor(`/playlist/${PLAYLIST_ID}?index=250`), itemPreview(250));
  });

  it('past the end, or with an index that is not a position, previews the playlist', async () => {
    freshExplorer();
    expectPreview(
      await headFor(`/playlist/${PLAYLIST_ID}?index=251`),
      playlistPreview(`${playlistUrl}?index=251`),
    );
    expectPreview(await headFor(`/playlist/${PLAYLIST_ID}?index=0`), playlistPreview());
    expectPreview(await headFor(`/playlist/${PLAYLIST_ID}?index=-3`), playlistPreview());
    expectPreview(await headFor(`/playlist/${PLAYLIST_ID}?index=1e3`), playlistPreview());
  });
});

describe('a channel', () => {
  it('is named once any playlist page naming it passed through the page source', async () => {
    freshExplorer();
    await readPage(); // its owner, in `info` and in the items
    await readPage(continuationAfter(1)); // a guest's videos: a page without `info`
    // The videos tab has one preview at either address, and one canonical URL.
    for (const path of [`/channel/${OWNER_ID}`, `/channel/${OWNER_ID}/videos`])
      expectPreview(await headFor(path), {
        documentTitle: `${OWNER_TITLE} · Videos · ${SITE}`,
        title: `${OWNER_TITLE} · Videos`,
        description: `Videos from ${OWNER_TITLE}, newest first.`,
        url: `${ORIGIN}/channel/${OWNER_ID}`,
        image: NEWEST_VIDEO_THUMBNAILS[1],
      });
    const playlists = await headFor(`/channel/${OWNER_ID}/playlists`);
    expectPreview(playlists, {
      documentTitle: `${OWNER_TITLE} · Playlists · ${SITE}`,
      title: `${OWNER_TITLE} · Playlists`,
      description: `Playlists from ${OWNER_TITLE}.`,
      url: `${ORIGIN}/channel/${OWNER_ID}/playlists`,
      image: FIRST_LIST_THUMBNAILS[0],
    });
    expect(playlists).toContain(
      '<title>Tom&#39;s &quot;Quotes&quot; &amp; &lt;Co&gt; 🎬 · Playlists · Catalogue Explorer</title>',
    );
    expect(readHead(playlists).jsonLd[0]).toMatchObject({
      '@type': 'ItemList',
      name: `${OWNER_TITLE} · Playlists`,
    });
    // The guest is known from a page that was not a first page; its lists are not (404).
    const url = new URL(`/channel/${GUEST_ID}`, 'http://x');
    expectPreview(previews.headFor(url, ORIGIN, { kind: 'none' }), {
      documentTitle: `${GUEST_TITLE} · Videos · ${SITE}`,
      title: `${GUEST_TITLE} · Videos`,
      description: `Videos from ${GUEST_TITLE}, newest first.`,
      url: `${ORIGIN}/channel/${GUEST_ID}`,
    });
  });

  it('is called by its ID while no playlist page has named it', async () => {
    freshExplorer();
    expectPreview(await headFor(`/channel/${OWNER_ID}`), {
      documentTitle: `${OWNER_ID} · Videos · ${SITE}`,
      title: `${OWNER_ID} · Videos`,
      description: `Videos from channel ${OWNER_ID}, newest first.`,
      url: `${ORIGIN}/channel/${OWNER_ID}`,
      image: NEWEST_VIDEO_THUMBNAILS[1],
    });
    const url = new URL(`/channel/${OWNER_ID}`, 'http://x');
    expect(previews.previewFor(url, await firstPageFor(url)).complete).toBe(false);
    // Without its first page at hand: the cache's copy of it (its card), or no image.
    expect(readHead(previews.headFor(url, ORIGIN, { kind: 'none' })).meta['og:image']).toBe(
      `${ORIGIN}/cards/channel/${OWNER_ID}.png`,
    );
    expect(previews.previewFor(url, { kind: 'none' }).image).toEqual(NEWEST_VIDEO_THUMBNAILS[1]);
    const other = new URL(`/channel/${UNKNOWN_CHANNEL_ID}/playlists`, 'http://x');
    expectPreview(previews.headFor(other, ORIGIN, { kind: 'none' }), {
      documentTitle: `${UNKNOWN_CHANNEL_ID} · Playlists · ${SITE}`,
      title: `${UNKNOWN_CHANNEL_ID} · Playlists`,
      description: `Playlists from channel ${UNKNOWN_CHANNEL_ID}.`,
      url: `${ORIGIN}/channel/${UNKNOWN_CHANNEL_ID}/playlists`,
    });
  });
});

describe('the image’s type', () => {
  it('is named from the URL path’s extension, and left out when the path names none', () => {
    freshExplorer();
    const typeOf = (url: string) =>
      readHead(
        renderHead(
          {
            locale: 'en',
            title: 'A',
            documentTitle: 'A',
            description: 'B',
            path: '/',
            image: { url, width: 336, height: 188 },
            card: null,
            embeddable: false,
            feed: null,
            structured: null,
            notFound: false,
            failed: false,
            complete: true,
          },
          ORIGIN,
        ),
      ).meta['og:image:type'];
    expect(typeOf('/thumbnails/vi/x/hqdefault.jpg?sqp=a.png')).toBe('image/jpeg');
    expect(typeOf('https://i.ytimg.com/vi_webp/x/mqdefault.WEBP')).toBe('image/webp');
    expect(typeOf('https://img.example/x/photo?f=.jpg')).toBeUndefined();
    expect(typeOf('https://img.example/x/photo.constructor')).toBeUndefined();
  });
});

describe('home and not found', () => {
  it('home: the product’s own title and description', async () => {
    freshExplorer();
    expectPreview(await headFor('/'), {
      documentTitle: SITE,
      title: SITE,
      description: /^Browse a video platform’s playlists and channels/,
      url: `${ORIGIN}/`,
      card: '/cards/home.png',
    });
  });

  const notFound = (what: string, path: string): Expected => ({
    documentTitle: `Not found · ${SITE}`,
    title: 'Not found',
    description: `There is no ${what} at this address. Open a playlist or channel from the home page.`,
    url: `${ORIGIN}${path}`,
    notFound: true,
  });

  it.each([
    ['an unknown playlist (upstream 404)', `/playlist/${UNKNOWN_PLAYLIST_ID}`, 'playlist'],
    ['an unknown channel (upstream 404)', `/channel/${UNKNOWN_CHANNEL_ID}/playlists`, 'channel'],
    ['a malformed playlist ID', '/playlist/not-an-id', 'playlist'],
    ['a malformed channel ID', '/channel/UCshort/videos', 'channel'],
    ['a platform link without a list', '/watch?v=dQw4w9WgXcQ', 'playlist'],
    ['an unknown path', '/no/such/page?x=1', 'page'],
  ])('%s: "Not found"', async (_, path, what) => {
    freshExplorer();
    const url = new URL(path, 'http://internal');
    // The route passes not-found for these (with a 404 status), or nothing for a path without
    // a list: either way the preview says so.
    for (const given of [{ kind: 'not-found' } as const, await firstPageFor(url)]) {
      expectPreview(previews.headFor(url, ORIGIN, given), notFound(what, url.pathname));
      expect(readHead(previews.headFor(url, ORIGIN, given)).jsonLd).toEqual([]);
    }
  });

  it('a hostile path comes back percent-encoded and escaped, never as markup', () => {
    freshExplorer();
    const url = new URL(`/"><script>alert('x')</script>`, 'http://internal');
    const head = previews.headFor(url, ORIGIN, { kind: 'not-found' });
    expect(head).not.toContain('<script');
    expectPreview(head, notFound('page', url.pathname));
    expect(url.pathname).toBe("/%22%3E%3Cscript%3Ealert('x')%3C/script%3E");
  });
});

describe('with the embedded catalogue', () => {
  // The real catalogue over loopback, as in embedded mode: root-relative thumbnails (served by
  // the explorer's /thumbnails proxy), 100 items a page, a playlist of 5,000.
  let fixture: ExplorerFixture;
  beforeAll(async () => {
    fixture = await startExplorerFixture({ faultControl: false });
  });
  afterAll(() => fixture.close());

  it('previews item 2,345 of 5,000 once a reader has paged that far, with absolute thumbnails', async () => {
    channelTitles = createChannelTitles();
    source = realPageSource(fixture.upstream.url, {
      apiKey: fixture.apiKey,
      apiSecret: fixture.apiSecret,
      onPage: channelTitles.learnFromPage,
    });
    pageSource = source.pageSource;
    previews = createLinkPreviews({ pageSource, channelTitles });
    const id = FIXTURE_IDS.playlist5000;
    const path = `/playlist/${id}?index=2345`;

    // Only the first page so far: the playlist's own preview, saying where item 2,345 is.
    const first = await firstPageFor(new URL(path, 'http://internal'));
    if (first.kind !== 'page') throw new Error('no first page');
    const info = (JSON.parse(first.page.body.toString()) as PlaylistPage).info!;
    const before = readHead(previews.headFor(new URL(path, 'http://x'), ORIGIN, first));
    expect(before.meta['og:title']).toBe(info.title);
    expect(before.meta.description).toBe(`#2,345 of 5,000 in ${info.title}`);
    expect(before.meta['og:image']).toBe(`${ORIGIN}/cards/playlist/${id}.png?index=2345`);
    expect(previews.previewFor(new URL(path, 'http://x'), first).image?.url).toMatch(
      new RegExp(`^/thumbnails/pl/${id}/hqdefault\\.jpg\\?`),
    );

    // The API reads pages 2 to 24 (items 101 to 2,400), as a reader scrolling down would.
    let continuation: string | null = JSON.parse(first.page.body.toString()).continuation;
    let item: PlaylistPage['items'][number] | undefined;
    for (let page = 2; page <= 24 && continuation !== null; page++) {
      const answer = await readPageOf(id, continuation);
      if (answer.kind !== 'page') throw new Error('a page failed');
      const body = JSON.parse(answer.page.body.toString()) as PlaylistPage;
      item ??= body.items.find((candidate) => candidate.index === 2345);
      continuation = body.continuation;
    }
    expect(item).toBeDefined();
    const head = previews.headFor(new URL(path, 'http://x'), ORIGIN, first);
    // The previews read the cache only: the upstream saw the reader's 24 pages and no more.
    expect(fixture.upstream.hits()).toBe(24);
    const { meta, title } = readHead(head);
    expect(meta['og:title']).toBe(item?.title);
    expect(meta.description).toBe(`#2,345 of 5,000 in ${info.title}`);
    expect(meta['og:image']).toBe(`${ORIGIN}/cards/playlist/${id}.png?index=2345`);
    expect(previews.previewFor(new URL(path, 'http://x'), first).image?.url).toBe(
      item?.thumbnails[0]?.url,
    );
    expect(meta['og:url']).toBe(`${ORIGIN}${path}`);
    expect(title).toBe(`${info.title} · ${SITE}`);

    // The playlist's owner is now known by name, so is its channel's preview.
    const channel = new URL(`/channel/${info.channelId}`, 'http://x');
    expect(readHead(previews.headFor(channel, ORIGIN, { kind: 'none' })).meta['og:title']).toBe(
      `${info.channelTitle} · Videos`,
    );
  });
});

function readPageOf(id: string, continuation: string) {
  return pageSource.get({ endpoint: 'playlist', id, continuation }, 'test-client');
}
