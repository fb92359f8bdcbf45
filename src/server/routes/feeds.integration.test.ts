import { extractFromJson, extractFromXml } from '@extractus/feed-extractor';
import Parser from 'rss-parser';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_IDS } from '../../catalogue/demo-fixtures.ts';
import type { ChannelVideo, PlaylistItem } from '../../shared/catalogue-schema.ts';
import { watchUrl } from '../../shared/platform-links.ts';
import { PROBLEM_CONTENT_TYPE } from '../../shared/problem.ts';
import {
  startExplorerFixture,
  type ExplorerFixture,
  type ServedExplorer,
} from '../../test-support/explorer-fixture.ts';
import { pagesFrom, playlistInfo } from '../../test-support/test-upstream.ts';

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
    const item = (index: number): PlaylistItem => ({
      index,
      id: `vid${String(index).padStart(8, '0')}`,
      title: `Lesson ${index}`,
      thumbnails: [],
      channelId: 'UCabcdefghijklmnopqrstuv',
      channelTitle: 'A course',
      viewsText: '1 view',
      publishedText: `${index} days ago`,
      duration: 60,
    });
    const pageAt = (from: number) => ({
      items: Array.from({ length: Math.min(100, total - from) }, (_, i) => item(from + i + 1)),
      continuation: from + 100 < total ? `from-${from + 100}` : null,
    });
    fixture.upstream.setFallback(
      pagesFrom((url) => {
        if (url.searchParams.get('id') !== id) return undefined;
        const continuation = url.searchParams.get('continuation');
        if (continuation === null)
          return { info: { ...playlistInfo(id), totalItems: total }, ...pageAt(0) };
        return pageAt(Number(continuation.slice('from-'.length)));
      }),
    );
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
});
