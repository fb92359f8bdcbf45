import { extractFromJson, extractFromXml } from '@extractus/feed-extractor';
import { parseFragment, type DefaultTreeAdapterMap } from 'parse5';
import Parser from 'rss-parser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_IDS } from '../../catalogue/demo-fixtures.ts';
import type { ChannelVideo, PlaylistItem } from '../../shared/catalogue-schema.ts';
import { feedUpdateLineSchema } from '../../shared/feeds.ts';
import { watchUrl } from '../../shared/platform-links.ts';
import { PROBLEM_CONTENT_TYPE } from '../../shared/problem.ts';
import {
  startExplorerFixture,
  type ExplorerFixture,
  type ServedExplorer,
} from '../../test-support/explorer-fixture.ts';
import { json, lessonPlaylist, pagesFrom, playlistInfo } from '../../test-support/test-upstream.ts';

// Every list's feed over real sockets, read back by two independent feed libraries
// (rss-parser for Atom and RSS, @extractus/feed-extractor for all three formats): each entry's
// link and title are the list's items it holds, in the order it promises (a channel's newest
// first; a playlist's end, the last added first). What polling costs the upstream (counted by
// the fixture's proxy), the validators, unknown lists, and titles no XML may hold raw.

let fixture: ExplorerFixture;
let explorer: ServedExplorer;
const rss = new Parser();

beforeAll(async () => {
  fixture = await startExplorerFixture();
  explorer = await fixture.serve({});
});
afterEach(() => fixture.reset());
afterAll(() => fixture.close());

async function pagesOf<T>(endpoint: string, id: string): Promise<T[]> {
  const items: T[] = [];
  let continuation: string | null = null;
  do {
    const query = new URLSearchParams({ id, ...(continuation ? { continuation } : {}) });
    const page = (await (await explorer.get(`/api/v1/${endpoint}?${query}`)).json()) as {
      items: T[];
      continuation: string | null;
    };
    items.push(...page.items);
    continuation = page.continuation;
  } while (continuation !== null);
  return items;
}

async function feed(path: string, headers: Record<string, string> = {}) {
  const response = await explorer.get(path, { headers });
  return { response, text: await response.text() };
}

/** The entries as both libraries read them, in each format: link and title. */
async function readEverywhere(base: string) {
  const atom = (await feed(`${base}.atom`)).text;
  const rssText = (await feed(`${base}.rss`)).text;
  const json = (await feed(`${base}.json`)).text;
  const pairs = (entries: Array<{ link?: string; title?: string }> | undefined) =>
    (entries ?? []).map(({ link, title }) => ({ link, title }));
  return {
    'rss-parser atom': pairs((await rss.parseString(atom)).items),
    'rss-parser rss': pairs((await rss.parseString(rssText)).items),
    'feed-extractor atom': pairs(extractFromXml(atom).entries),
    'feed-extractor rss': pairs(extractFromXml(rssText).entries),
    'feed-extractor json': pairs(extractFromJson(json).entries),
  };
}

describe('feeds read by two feed libraries', () => {
  it('a channel: its newest videos, newest first, linking to the platform', async () => {
    const id = FIXTURE_IDS.smallChannel;
    const first = (await pagesOf<ChannelVideo>('channel-videos', id)).slice(0, 50);
    const firstPage = (await (await explorer.get(`/api/v1/channel-videos?id=${id}`)).json()) as {
      items: ChannelVideo[];
    };
    const expected = firstPage.items
      .slice(0, 50)
      .map((video) => ({ link: watchUrl(video.id), title: video.title }));
    expect(first.length).toBeGreaterThan(0);
    for (const [reader, entries] of Object.entries(await readEverywhere(`/feeds/channel/${id}`)))
      expect(entries, reader).toEqual(expected);
  });

  it('a playlist: its end, where items are added, the last added first', async () => {
    const id = FIXTURE_IDS.playlist101;
    const items = await pagesOf<PlaylistItem>('playlist', id);
    expect(items).toHaveLength(101);
    const expected = items
      .slice(-50)
      .reverse()
      .map((item) => ({ link: watchUrl(item.id, id, item.index), title: item.title }));
    for (const [reader, entries] of Object.entries(await readEverywhere(`/feeds/playlist/${id}`)))
      expect(entries, reader).toEqual(expected);
  });

  it('an empty playlist: a valid feed with no entries (JSON Feed’s `items` still there)', async () => {
    const base = `/feeds/playlist/${FIXTURE_IDS.playlistEmpty}`;
    expect(JSON.parse((await feed(`${base}.json`)).text)).toMatchObject({ items: [] });
    expect(extractFromJson((await feed(`${base}.json`)).text).entries).toEqual([]);
    expect((await rss.parseString((await feed(`${base}.atom`)).text)).items).toEqual([]);
    expect((await rss.parseString((await feed(`${base}.rss`)).text)).items).toEqual([]);
  });

  it('names its format by extension, else by Accept (Atom by default), and says it varies', async () => {
    const base = `/feeds/channel/${FIXTURE_IDS.smallChannel}`;
    const typeOf = async (path: string, accept?: string) => {
      const { response } = await feed(path, accept ? { accept } : {});
      return [response.headers.get('content-type'), response.headers.get('vary')];
    };
    expect(await typeOf(base)).toEqual(['application/atom+xml; charset=utf-8', 'Accept']);
    expect(await typeOf(base, 'application/feed+json')).toEqual([
      'application/feed+json; charset=utf-8',
      'Accept',
    ]);
    expect(await typeOf(base, 'application/rss+xml, */*')).toEqual([
      'application/rss+xml; charset=utf-8',
      'Accept',
    ]);
    expect(await typeOf(`${base}.rss`, 'application/feed+json')).toEqual([
      'application/rss+xml; charset=utf-8',
      null,
    ]);
    const json = JSON.parse((await feed(`${base}.json`)).text) as { version: string };
    expect(json.version).toBe('https://jsonfeed.org/version/1.1');
  });
});

describe('polling', () => {
  it('100 polls of a cold feed at once cost one upstream call; polls while it is fresh cost none', async () => {
    const path = `/feeds/channel/${FIXTURE_IDS.bigChannel}.atom`;
    const before = fixture.upstream.hits();
    const answers = await Promise.all(Array.from({ length: 100 }, () => feed(path)));
    expect(answers.every(({ response }) => response.status === 200)).toBe(true);
    expect(new Set(answers.map(({ text }) => text)).size).toBe(1);
    expect(fixture.upstream.hits() - before).toBe(1);
    await Promise.all(Array.from({ length: 20 }, () => feed(path)));
    expect(fixture.upstream.hits() - before).toBe(1);
  });

  it('a playlist’s chain is read once; its polls then cost nothing while fresh', async () => {
    // An explorer of its own: nothing of this playlist in its cache yet.
    const cold = await fixture.serve({});
    try {
      const path = `/feeds/playlist/${FIXTURE_IDS.playlist101}.rss`;
      const before = fixture.upstream.hits();
      await Promise.all(Array.from({ length: 50 }, () => cold.get(path)));
      // Two pages: the first (its total) and the one holding its end.
      expect(fixture.upstream.hits() - before).toBe(2);
      await Promise.all(Array.from({ length: 50 }, () => cold.get(path)));
      expect(fixture.upstream.hits() - before).toBe(2);
    } finally {
      await cold.close();
    }
  });

  it('answers an unchanged feed with 304, by ETag or by date', async () => {
    const path = `/feeds/playlist/${FIXTURE_IDS.playlist101}.json`;
    const { response } = await feed(path);
    const etag = response.headers.get('etag')!;
    const modified = response.headers.get('last-modified')!;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(Date.parse(modified)).toBeGreaterThan(0);
    expect((await feed(path, { 'if-none-match': etag })).response.status).toBe(304);
    expect((await feed(path, { 'if-none-match': `"other", ${etag}` })).response.status).toBe(304);
    expect((await feed(path, { 'if-modified-since': modified })).response.status).toBe(304);
    expect((await feed(path, { 'if-none-match': '"other"' })).response.status).toBe(200);
    const earlier = new Date(Date.parse(modified) - 60_000).toUTCString();
    expect((await feed(path, { 'if-modified-since': earlier })).response.status).toBe(200);
  });

  it('a grown playlist: the new items lead the feed, read from the last page known onwards', async () => {
    const id = 'PLfeedGrowsAtItsEnd0000000000000';
    let total = 150;
    const playlist = lessonPlaylist(
      id,
      () => total,
      (item) => ({ ...item, publishedText: `${item.index} days ago` }),
    );
    fixture.upstream.setFallback(pagesFrom(playlist.answer));
    // No page cache: every poll asks the upstream, as when the freshness window has passed.
    const uncached = await fixture.serve({ CACHE_MAX_BYTES: '0' });
    try {
      const titles = async () =>
        (
          await rss.parseString(await (await uncached.get(`/feeds/playlist/${id}.atom`)).text())
        ).items.map((entry) => entry.title);
      expect((await titles()).slice(0, 2)).toEqual(['Lesson 150', 'Lesson 149']);
      total = 153;
      const before = fixture.upstream.hits();
      expect((await titles()).slice(0, 4)).toEqual([
        'Lesson 153',
        'Lesson 152',
        'Lesson 151',
        'Lesson 150',
      ]);
      // The first page (its total changed) and the last page known, read again: not the chain.
      expect(fixture.upstream.hits() - before).toBe(2);
      const unchanged = fixture.upstream.hits();
      await titles();
      // Unchanged: the first page alone.
      expect(fixture.upstream.hits() - unchanged).toBe(1);
    } finally {
      await uncached.close();
    }
  });

  it('a playlist edited with its count unchanged: a changed first page reads the tail again', async () => {
    const id = 'PLfeedEditedSameCount00000000000';
    const total = 250;
    // Item 1 and the last item can be swapped for others: the count stays 250.
    const playlist = lessonPlaylist(id, () => total);
    playlist.firstVideo = 'first000001';
    fixture.upstream.setFallback(pagesFrom(playlist.answer));
    const uncached = await fixture.serve({ CACHE_MAX_BYTES: '0' });
    try {
      const newest = async () =>
        (await rss.parseString(await (await uncached.get(`/feeds/playlist/${id}.rss`)).text()))
          .items[0]?.title;
      expect(await newest()).toBe('Lesson 250');
      // Edited at both ends, the count unchanged: the first page differs, so the tail is read
      // again, from the page holding its last 50 items (the third, of 50), not the chain.
      playlist.firstVideo = 'first000002';
      playlist.lastTitle = 'Lesson 250, re-recorded';
      const before = fixture.upstream.hits();
      expect(await newest()).toBe('Lesson 250, re-recorded');
      expect(fixture.upstream.hits() - before).toBe(2);
      // Unchanged again: the first page alone.
      const unchanged = fixture.upstream.hits();
      expect(await newest()).toBe('Lesson 250, re-recorded');
      expect(fixture.upstream.hits() - unchanged).toBe(1);
    } finally {
      await uncached.close();
    }
  });
});

describe('many lists in one answer (/feeds/updates)', () => {
  const linesOf = async (response: Response) =>
    (await response.text())
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, unknown>);

  it('a line per list: its JSON Feed and what it cost, or its problem', async () => {
    const cold = await fixture.serve({});
    try {
      const lists = [
        `playlist:${FIXTURE_IDS.playlist101}`,
        `channel:${FIXTURE_IDS.smallChannel}`,
        'channel:UCnoSuchChannelAnywhere1',
      ];
      const ask = () => cold.get(`/feeds/updates?lists=${lists.join(',')}`);
      const first = await ask();
      expect(first.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
      const lines = await linesOf(first);
      expect(lines.map((line) => line.list).sort()).toEqual([...lists].sort());
      const byList = new Map(lines.map((line) => [line.list, line]));
      // Cold: the playlist's two pages, the channel's first page.
      expect(byList.get(lists[0]!)?.lookups).toBe(2);
      expect(byList.get(lists[1]!)?.lookups).toBe(1);
      expect((byList.get(lists[0]!)?.feed as { items: unknown[] }).items).toHaveLength(50);
      expect(byList.get(lists[2]!)?.problem).toMatchObject({ status: 404 });
      // Again at once: everything from the server's copy.
      const again = new Map((await linesOf(await ask())).map((line) => [line.list, line]));
      expect(again.get(lists[0]!)?.lookups).toBe(0);
      expect(again.get(lists[1]!)?.lookups).toBe(0);
    } finally {
      await cold.close();
    }
  });

  it('refuses a malformed or oversized request with a 400 problem', async () => {
    const many = Array.from({ length: 101 }, () => `channel:${FIXTURE_IDS.smallChannel}`);
    for (const query of [
      '',
      'lists=',
      'lists=video:x',
      'lists=playlist:bad',
      `lists=${many.join(',')}`,
    ]) {
      const response = await explorer.get(`/feeds/updates?${query}`);
      expect(response.status, query).toBe(400);
      expect(response.headers.get('content-type'), query).toBe(PROBLEM_CONTENT_TYPE);
    }
  });

  it('a key the catalogue refuses: 250 lists in three requests cost one lookup, every line says so', async () => {
    fixture.upstream.setFallback(json(401, { title: 'Unauthorized', status: 401 }));
    // A fresh explorer: it has not yet seen its key accepted, nor anything cached.
    const refused = await fixture.serve({});
    try {
      const lists = Array.from({ length: 250 }, (_, n) =>
        n % 2 === 0
          ? `playlist:PLrefusedKey${String(n).padStart(20, '0')}`
          : `channel:UC${`refusedKey${n}`.padEnd(22, '0')}`,
      );
      const requests = [lists.slice(0, 100), lists.slice(100, 200), lists.slice(200)];
      const answers = await Promise.all(
        requests.map((some) => refused.get(`/feeds/updates?lists=${some.join(',')}`)),
      );
      const lines = (await Promise.all(answers.map(linesOf))).flat();
      expect(fixture.upstream.hits()).toBe(1);
      expect(lines.map((line) => line.list).sort()).toEqual([...lists].sort());
      for (const line of lines) {
        const problem = feedUpdateLineSchema.parse(line);
        expect('problem' in problem && problem.problem, String(line.list)).toMatchObject({
          status: 502,
          code: 'upstream_credentials_rejected',
        });
      }
      // Every list turned away without a lookup is told when the explorer will try again.
      const waits = lines.map((line) => (line.problem as { retryAfter?: number }).retryAfter);
      expect(waits.filter((wait) => wait !== undefined && wait >= 1).length).toBeGreaterThanOrEqual(
        249,
      );

      // Asked again at once: still no lookup; and the explorer says it is not ready.
      await linesOf(await refused.get(`/feeds/updates?lists=${lists.slice(0, 100).join(',')}`));
      expect(fixture.upstream.hits()).toBe(1);
      const ready = await refused.get('/readyz');
      expect(ready.status).toBe(503);
      expect(await ready.json()).toMatchObject({ reason: 'upstream_credentials_rejected' });
    } finally {
      await refused.close();
    }
  });
});

describe('what a feed refuses, and what it carries intact', () => {
  it('an unknown list, a malformed ID or an unknown path: a 404 problem, not an empty feed', async () => {
    for (const path of [
      '/feeds/playlist/PLnoSuchPlaylistAnywhere0000000000.atom',
      '/feeds/channel/UCnoSuchChannelAnywhere000000',
      '/feeds/playlist/not-an-id.rss',
      '/feeds/playlist',
      '/feeds/channel/UCcatalogueDemoChannel01.xml',
    ]) {
      const { response, text } = await feed(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type'), path).toBe(PROBLEM_CONTENT_TYPE);
      expect(JSON.parse(text).status, path).toBe(404);
    }
  });

  it('titles with markup, ]]>, control characters and bidi overrides come out well-formed and whole', async () => {
    const id = 'PLhostileTitlesInAFeed000000000';
    const hostile = [
      '<script>alert(1)</script> & <b>bold</b>',
      'ends a CDATA ]]> here ]]]]><![CDATA[>',
      'bell\u0007 and nul\u0000 and form\u000c feed',
      'right\u202eto left\u202c and \u2066isolated\u2069',
    ];
    fixture.upstream.setFallback(
      pagesFrom((url) =>
        url.searchParams.get('id') === id
          ? {
              info: { ...playlistInfo(id), title: hostile[1]!, totalItems: hostile.length },
              items: hostile.map((title, i) => ({
                index: i + 1,
                id: `hostile${String(i).padStart(4, '0')}`,
                title,
                thumbnails: [],
                channelId: 'UCabcdefghijklmnopqrstuv',
                channelTitle: hostile[0]!,
                viewsText: '1 view',
                publishedText: '1 day ago',
                duration: 60,
              })),
              continuation: null,
            }
          : undefined,
      ),
    );
    // XML drops what XML 1.0 cannot carry, and only that; JSON carries every character.
    const xmlSafe = (title: string) => title.replace(/(?![\t\n\r\u007F-\u009F])\p{Cc}/gu, '');
    const expected = [...hostile].reverse();
    const atom = (await feed(`/feeds/playlist/${id}.atom`)).text;
    const rssText = (await feed(`/feeds/playlist/${id}.rss`)).text;
    const json = (await feed(`/feeds/playlist/${id}.json`)).text;
    expect(atom).not.toMatch(/<script>|<b>|<!\[CDATA/);
    expect((await rss.parseString(atom)).items.map((e) => e.title)).toEqual(expected.map(xmlSafe));
    expect((await rss.parseString(rssText)).items.map((e) => e.title)).toEqual(
      expected.map(xmlSafe),
    );
    expect(extractFromXml(atom).entries?.map((e) => e.title)).toEqual(expected.map(xmlSafe));
    expect(extractFromXml(rssText).title).toBe(hostile[1]);
    expect(
      (JSON.parse(json) as { items: Array<{ title: string }> }).items.map((e) => e.title),
    ).toEqual(expected);
  });

  /** HTML as a browser parses it: its text, and how many elements it makes. */
  function asHtml(html: string): { text: string; elements: number } {
    let text = '';
    let elements = 0;
    const visit = (node: DefaultTreeAdapterMap['childNode']) => {
      if (node.nodeName === '#text') text += (node as DefaultTreeAdapterMap['textNode']).value;
      else if (!node.nodeName.startsWith('#')) elements++;
      if ('childNodes' in node) node.childNodes.forEach(visit);
    };
    parseFragment(html).childNodes.forEach(visit);
    return { text, elements };
  }

  it('RSS descriptions holding markup reach readers as text, never as elements', async () => {
    const channel = `UC${'markupInRss'.padEnd(22, '0')}`;
    const playlist = 'PLmarkupInRssDescription0000000';
    const snippet = 'a &lt; b <img src=x onerror=alert(1)> & "c" \'d\'';
    const about = '<script>alert(2)</script> & <b>bold</b>';
    fixture.upstream.setFallback(
      pagesFrom((url) => {
        const id = url.searchParams.get('id');
        if (id === channel)
          return {
            items: [0, 1].map((n) => ({
              id: `markup${String(n).padStart(5, '0')}`,
              title: `Video ${n}`,
              descriptionSnippet: snippet,
              thumbnails: [],
              duration: 60,
              viewCount: 5,
              publishedText: '1 day ago',
            })),
            continuation: null,
          };
        if (id === playlist)
          return {
            info: { ...playlistInfo(playlist), description: about, totalItems: 1 },
            // An item: feed-extractor cannot read an RSS channel without one unnormalised.
            items: [
              {
                index: 1,
                id: 'markup00009',
                title: 'Item 1',
                thumbnails: [],
                channelId: 'UCabcdefghijklmnopqrstuv',
                channelTitle: 'A channel',
                viewsText: '1 view',
                publishedText: '1 day ago',
                duration: 60,
              },
            ],
            continuation: null,
          };
        return undefined;
      }),
    );
    const channelRss = (await feed(`/feeds/channel/${channel}.rss`)).text;
    // The XML carries HTML that shows the text: `<` escaped for HTML, then for XML.
    expect(channelRss).toContain('&amp;lt;img src=x onerror=alert(1)&amp;gt;');
    const parsed = await rss.parseString(channelRss);
    expect(parsed.items).toHaveLength(2);
    for (const entry of parsed.items)
      expect(asHtml(entry.content!)).toEqual({ text: snippet, elements: 0 });
    // feed-extractor reads a description as HTML and gives back its text: the text sent.
    const raw = extractFromXml(channelRss, { normalization: false }) as unknown as {
      item: Array<{ description: string }>;
    };
    expect(raw.item.map((entry) => entry.description)).toEqual([snippet, snippet]);
    for (const entry of extractFromXml(channelRss).entries ?? [])
      expect(entry.description).not.toMatch(/<img|<script/);

    const playlistRss = (await feed(`/feeds/playlist/${playlist}.rss`)).text;
    const described = asHtml((await rss.parseString(playlistRss)).description!);
    expect(described.elements).toBe(0);
    expect(described.text.startsWith(about)).toBe(true);
    const extracted = extractFromXml(playlistRss, { normalization: false }) as unknown as {
      description: string;
    };
    // Unnormalised, feed-extractor hands the channel's description over as the HTML it is.
    const extractedHtml = asHtml(extracted.description);
    expect(extractedHtml.elements).toBe(0);
    expect(extractedHtml.text.startsWith(about)).toBe(true);
    // Atom and JSON Feed say text already: the same characters, as text.
    const atom = await rss.parseString((await feed(`/feeds/channel/${channel}.atom`)).text);
    expect(atom.items[0]?.summary).toBe(snippet);
    const jsonFeed = JSON.parse((await feed(`/feeds/channel/${channel}.json`)).text) as {
      items: Array<{ content_text: string; content_html?: string }>;
    };
    expect(jsonFeed.items[0]).toMatchObject({ content_text: snippet });
    expect(jsonFeed.items[0]?.content_html).toBeUndefined();
  });

  it('only http(s) URLs go out: a javascript: or data: thumbnail is dropped, in every format', async () => {
    const channel = `UC${'hostileUrls'.padEnd(22, '0')}`;
    const playlist = 'PLhostileThumbnailUrls000000000';
    const hostile = [
      'javascript:alert(1)',
      'JavaScript:alert(document.cookie)//.jpg',
      'data:image/svg+xml,<svg onload=alert(1)>',
      'vbscript:msgbox(1)',
      'file:///etc/passwd',
    ];
    const safe = 'https://i.ytimg.com/vi/safe/hqdefault.jpg';
    const video = (n: number, thumbnails: Array<{ url: string; width: number }>) => ({
      id: `urls${String(n).padStart(7, '0')}`,
      title: `Video ${n}`,
      descriptionSnippet: '',
      thumbnails: thumbnails.map(({ url, width }) => ({ url, width, height: width })),
      duration: 60,
      viewCount: 5,
      publishedText: '1 day ago',
    });
    fixture.upstream.setFallback(
      pagesFrom((url) => {
        const id = url.searchParams.get('id');
        if (id === channel)
          return {
            items: [
              // Each hostile URL alone: no image at all.
              ...hostile.map((bad, n) => video(n, [{ url: bad, width: 640 }])),
              // A hostile URL beside a usable one (the hostile one larger): the usable one.
              video(9, [
                { url: hostile[0]!, width: 1280 },
                { url: safe, width: 480 },
              ]),
            ],
            continuation: null,
          };
        if (id === playlist)
          return {
            info: {
              ...playlistInfo(playlist),
              thumbnails: [{ url: hostile[0]!, width: 640, height: 360 }],
              totalItems: 1,
            },
            items: [
              {
                index: 1,
                id: 'urls0000099',
                title: 'Item 1',
                thumbnails: [{ url: hostile[2]!, width: 320, height: 180 }],
                channelId: 'UCabcdefghijklmnopqrstuv',
                channelTitle: 'A channel',
                viewsText: '1 view',
                publishedText: '1 day ago',
                duration: 60,
              },
            ],
            continuation: null,
          };
        return undefined;
      }),
    );
    const lastVideo = 'urls0000009';
    for (const base of [`/feeds/channel/${channel}`, `/feeds/playlist/${playlist}`]) {
      const atom = (await feed(`${base}.atom`)).text;
      const rssText = (await feed(`${base}.rss`)).text;
      const jsonText = (await feed(`${base}.json`)).text;
      // Nowhere, in any form.
      for (const text of [atom, rssText, jsonText])
        expect(text).not.toMatch(/javascript:|vbscript:|data:image|file:/i);
      // Every URL-valued attribute and element is http(s).
      const urls = [
        ...[...atom.matchAll(/href="([^"]*)"/g)].map((m) => m[1]!),
        ...[...atom.matchAll(/<(?:logo|icon|id)>([^<]*)</g)].map((m) => m[1]!),
        ...[...rssText.matchAll(/url="([^"]*)"/g)].map((m) => m[1]!),
        ...[...rssText.matchAll(/<(?:link|url|comments)>([^<]*)</g)].map((m) => m[1]!),
      ];
      const jsonFeed = JSON.parse(jsonText) as {
        home_page_url: string;
        feed_url: string;
        icon?: string;
        items: Array<{
          url: string;
          external_url: string;
          image?: string;
          attachments?: Array<{ url: string }>;
        }>;
      };
      urls.push(
        jsonFeed.home_page_url,
        jsonFeed.feed_url,
        ...(jsonFeed.icon ? [jsonFeed.icon] : []),
      );
      for (const item of jsonFeed.items)
        urls.push(
          item.url,
          item.external_url,
          ...(item.image ? [item.image] : []),
          ...(item.attachments ?? []).map((attachment) => attachment.url),
        );
      expect(urls.length).toBeGreaterThan(5);
      for (const url of urls) expect(url, base).toMatch(/^https?:\/\/[^/]/);
      // The list's own image, hostile, is left out.
      expect(jsonFeed.icon).toBeUndefined();
      expect(atom).not.toContain('<logo>');
      expect(rssText).not.toContain('<image>');
      // An item with only hostile images has none; one with a usable one beside, that one.
      const enclosures = (await rss.parseString(rssText)).items.map(
        (entry) => entry.enclosure?.url,
      );
      const images = jsonFeed.items.map((item) => item.image);
      const withSafe = jsonFeed.items.findIndex((item) => item.url.includes(lastVideo));
      for (const [n, [enclosure, image]] of enclosures
        .map((e, i) => [e, images[i]] as const)
        .entries()) {
        expect(enclosure).toBe(n === withSafe ? safe : undefined);
        expect(image).toBe(n === withSafe ? safe : undefined);
      }
    }
  });
});
