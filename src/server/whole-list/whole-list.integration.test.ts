import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BIG_CHANNEL_VIDEOS, FIXTURE_IDS } from '../../catalogue/demo-fixtures.ts';
import { endpoints } from '../../shared/endpoints.ts';
import { problemSchema } from '../../shared/problem.ts';
import {
  EXPORT_COLUMNS,
  ITEM_URL_FIELD,
  exportPath,
  exportedItemSchemas,
  itemUrl,
  listSummarySchema,
  measureValue,
  summaryPath,
  walkCostPath,
  walkEventSchema,
  walkPath,
  type ListItem,
  type ListKind,
} from '../../shared/whole-list.ts';
import {
  startExplorerFixture,
  type ExplorerFixture,
  type ServedExplorer,
} from '../../test-support/explorer-fixture.ts';

// Whole lists over real HTTP: the explorer in front of the embedded catalogue, behind a proxy
// that counts what reaches the upstream (and can be made to fail), each test with an explorer
// of its own so that its cache and quota start empty.

let fixture: ExplorerFixture;

beforeAll(async () => {
  fixture = await startExplorerFixture();
});

afterEach(() => fixture.reset());

afterAll(() => fixture.close());

const serveExplorer = (env: Record<string, string> = {}) =>
  fixture.serve({
    STATIC_ROOT: 'no-such-build',
    CLIENT_RATE_LIMIT_BURST: '100000',
    CLIENT_RATE_LIMIT_PER_SECOND: '100000',
    TRUST_PROXY: 'true',
    ...env,
  });

/** Every item of a list, read through the lookups a page at a time, as the app reads them. */
async function itemsOneByOne(explorer: ServedExplorer, list: ListKind, id: string) {
  const items: ListItem[] = [];
  let continuation: string | null = null;
  let pages = 0;
  do {
    const query = new URLSearchParams({ id });
    if (continuation !== null) query.set('continuation', continuation);
    const response = await explorer.get(`${endpoints[list].path}?${query}`);
    expect(response.status).toBe(200);
    const page = endpoints[list].pageSchema.parse(await response.json());
    items.push(...(page.items as ListItem[]));
    continuation = page.continuation;
    pages++;
  } while (continuation !== null);
  return { items, pages };
}

async function summaryOf(explorer: ServedExplorer, list: ListKind, id: string, range?: object) {
  const response = await explorer.get(summaryPath(list, id, range));
  expect(response.status).toBe(200);
  return listSummarySchema.parse(await response.json());
}

function expectedMeasure(list: ListKind, items: ListItem[], firstPosition = 1) {
  const values = items.map((item) => measureValue(list, item));
  const present = values.filter((v): v is number => v !== null);
  const sorted = [...present].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median =
    sorted.length === 0
      ? null
      : sorted.length % 2 === 1
        ? sorted[mid]
        : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  const total = present.reduce((a, b) => a + b, 0);
  const min = Math.min(...present);
  const max = Math.max(...present);
  const shortestAt = values.indexOf(min);
  const longestAt = values.indexOf(max);
  return {
    total,
    counted: present.length,
    missing: values.length - present.length,
    average: present.length === 0 ? null : total / present.length,
    median,
    shortest:
      present.length === 0
        ? null
        : { position: firstPosition + shortestAt, id: items[shortestAt]?.id, value: min },
    longest:
      present.length === 0
        ? null
        : { position: firstPosition + longestAt, id: items[longestAt]?.id, value: max },
  };
}

const problemOf = async (response: Response) => {
  expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  return problemSchema.passthrough().parse(await response.json());
};

describe('summaries', () => {
  it('the 5,000-video playlist: the summary equals the sum over its pages read one by one', async () => {
    const explorer = await serveExplorer();
    const { items, pages } = await itemsOneByOne(explorer, 'playlist', FIXTURE_IDS.playlist5000);
    expect(items).toHaveLength(5000);
    const calls = fixture.upstream.hits();
    const summary = await summaryOf(explorer, 'playlist', FIXTURE_IDS.playlist5000);
    // Everything was in the cache: the summary spent nothing.
    expect(fixture.upstream.hits()).toBe(calls);
    expect(summary).toMatchObject({
      complete: true,
      stoppedBy: null,
      pages,
      count: 5000,
      totalItems: 5000,
      range: null,
    });
    const expected = expectedMeasure('playlist', items);
    expect(summary.measure).toMatchObject({ ...expected, kind: 'duration', unit: 'seconds' });
    // The demo catalogue has live streams and missing durations: they are counted apart.
    expect(summary.measure.missing).toBeGreaterThan(0);
  });

  it('a range: from item 20 to 60 reads one page and sums exactly those items', async () => {
    const explorer = await serveExplorer();
    const summary = await summaryOf(explorer, 'playlist', FIXTURE_IDS.playlist5000, {
      from: 20,
      to: 60,
    });
    expect(fixture.upstream.hits()).toBe(1);
    const first = await explorer.get(`${endpoints.playlist.path}?id=${FIXTURE_IDS.playlist5000}`);
    const page = endpoints.playlist.pageSchema.parse(await first.json());
    const range = page.items.slice(19, 60) as ListItem[];
    expect(summary.count).toBe(41);
    expect(summary.range).toEqual({ from: 20, to: 60, requestedTo: 60, clipped: false });
    expect(summary.measure).toMatchObject(expectedMeasure('playlist', range, 20));
  });

  it('a range past the end is cut to the end and says so', async () => {
    const explorer = await serveExplorer();
    const summary = await summaryOf(explorer, 'playlist', FIXTURE_IDS.playlist101, {
      from: 90,
      to: 500,
    });
    expect(summary.count).toBe(12);
    expect(summary.range).toEqual({ from: 90, to: 101, requestedTo: 500, clipped: true });
  });

  it.each([
    ['from after to', '?from=60&to=20'],
    ['from below 1', '?from=0&to=20'],
    ['not an integer', '?from=1.5'],
    ['not a number', '?to=sixty'],
    ['an unknown parameter', '?from=1&sort=long'],
  ])('a range that is not one (%s) is a 400 problem, with no upstream call', async (_, query) => {
    const explorer = await serveExplorer();
    const response = await explorer.get(
      `/api/summary/playlist/${FIXTURE_IDS.playlist5000}${query}`,
    );
    expect(response.status).toBe(400);
    expect((await problemOf(response)).code).toMatch(/^(invalid_range|unknown_parameter)$/);
    expect(fixture.upstream.hits()).toBe(0);
  });

  it('the empty playlist, the 101-video playlist and a channel with no playlists', async () => {
    const explorer = await serveExplorer();
    const empty = await summaryOf(explorer, 'playlist', FIXTURE_IDS.playlistEmpty);
    expect(empty).toMatchObject({ complete: true, count: 0, totalItems: 0, pages: 1 });
    expect(empty.measure).toMatchObject({ total: 0, counted: 0, average: null, median: null });
    expect(empty.measure.shortest).toBeNull();

    const hundredOne = await summaryOf(explorer, 'playlist', FIXTURE_IDS.playlist101);
    expect(hundredOne).toMatchObject({ complete: true, count: 101, totalItems: 101, pages: 2 });
    const { items } = await itemsOneByOne(explorer, 'playlist', FIXTURE_IDS.playlist101);
    expect(hundredOne.measure).toMatchObject(expectedMeasure('playlist', items));

    const noPlaylists = await summaryOf(explorer, 'channel-playlists', FIXTURE_IDS.smallChannel);
    expect(noPlaylists).toMatchObject({ complete: true, count: 0, totalItems: null });
    expect(noPlaylists.measure).toMatchObject({ kind: 'videoCount', unit: 'videos', total: 0 });
  });

  it.each([
    ['a hex bound', '?from=0x10'],
    ['an exponent', '?to=1e3'],
    ['a sign', '?from=%2B2'],
    ['a decimal point', '?to=2.0'],
    ['a space', '?from=%201'],
  ])('a bound written loosely (%s) is a 400 too', async (_, query) => {
    const explorer = await serveExplorer();
    const response = await explorer.get(`/api/summary/playlist/${FIXTURE_IDS.playlist101}${query}`);
    expect(response.status).toBe(400);
    expect((await problemOf(response)).code).toBe('invalid_range');
  });

  it('parameters are read as strictly as the lookups read theirs', async () => {
    const explorer = await serveExplorer();
    const list = FIXTURE_IDS.playlist101;
    const cases: Array<[string, string]> = [
      [`/api/summary/playlist/${list}?from=2&from=3`, 'repeated_parameter'],
      [`/api/walk/playlist/${list}?from=2`, 'unknown_parameter'],
      [`/api/walk-cost/playlist/${list}?x`, 'unknown_parameter'],
      [`/api/export/playlist/${list}.csv?download=1`, 'unknown_parameter'],
      [`/api/export/playlist/${list}.csv?bom=yes`, 'invalid_request'],
      [`/api/export/playlist/${list}.json?bom=1`, 'invalid_request'],
      // The router decodes the ID once: `%2550` is `%50`, not `P`.
      [`/api/summary/playlist/%2550LcatalogueDemoPlaylist0101items00`, 'invalid_id'],
    ];
    for (const [path, code] of cases) {
      const response = await explorer.get(path);
      expect(response.status, path).toBe(400);
      expect((await problemOf(response)).code, path).toBe(code);
    }
    expect(fixture.upstream.hits()).toBe(0);
  });

  it('HEAD answers what GET would, from the first page alone: no walk', async () => {
    const explorer = await serveExplorer();
    const list = FIXTURE_IDS.playlist5000;
    const paths = [
      summaryPath('playlist', list),
      exportPath('playlist', list, 'csv'),
      `/api/walk/playlist/${list}`,
    ];
    const disposition: Array<string | null> = [];
    for (const path of paths) {
      const head = await explorer.get(path, { method: 'HEAD' });
      expect(head.status, path).toBe(200);
      expect(await head.text(), path).toBe('');
      disposition.push(head.headers.get('content-disposition'));
    }
    expect(disposition[1]).toMatch(/^attachment; filename="/);
    // The first page, once (then cached), of the list's 50.
    expect(fixture.upstream.hits()).toBe(1);
    const unknown = await explorer.get(
      summaryPath('playlist', 'PLthisPlaylistDoesNotExist000000000'),
      {
        method: 'HEAD',
      },
    );
    expect(unknown.status).toBe(404);
  });

  it('unknown lists, bad IDs and unknown kinds answer as the lookups do', async () => {
    const explorer = await serveExplorer();
    const unknown = await explorer.get(
      summaryPath('playlist', 'PLthisPlaylistDoesNotExist000000000'),
    );
    expect(unknown.status).toBe(404);
    expect((await problemOf(unknown)).code).toBe('playlist_not_found');
    // Its price too: the first page's problem, as the lookup answers it.
    const price = await explorer.get(
      walkCostPath('playlist', 'PLthisPlaylistDoesNotExist000000000'),
    );
    expect(price.status).toBe(404);
    expect((await problemOf(price)).code).toBe('playlist_not_found');
    const badId = await explorer.get(summaryPath('channel-videos', 'not-a-channel'));
    expect(badId.status).toBe(400);
    expect((await problemOf(badId)).code).toBe('invalid_id');
    const kind = await explorer.get(`/api/summary/videos/${FIXTURE_IDS.bigChannel}`);
    expect(kind.status).toBe(404);
    const format = await explorer.get(`/api/export/playlist/${FIXTURE_IDS.playlist101}.xlsx`);
    expect(format.status).toBe(404);
    await problemOf(format);
  });
});

/** The items of an export, read back from its text. */
function readBack(list: ListKind, format: 'csv' | 'json' | 'txt', text: string) {
  if (format === 'json') return exportedItemSchemas[list].array().parse(JSON.parse(text));
  if (format === 'txt') return text.split('\n').slice(0, -1);
  const rows = parseCsv(text, { columns: true, record_delimiter: '\r\n' }) as Record<
    string,
    string
  >[];
  return rows.map((row) => {
    const item: Record<string, unknown> = {};
    for (const column of EXPORT_COLUMNS[list])
      item[column.name] = column.parse(row[column.name] ?? '');
    item[ITEM_URL_FIELD] = row[ITEM_URL_FIELD];
    return item;
  });
}

describe('exports', () => {
  const cases: Array<[ListKind, string, number]> = [
    ['playlist', FIXTURE_IDS.playlist5000, 5000],
    ['channel-videos', FIXTURE_IDS.bigChannel, BIG_CHANNEL_VIDEOS],
  ];
  it.each(cases)(
    '%s %s: CSV, JSON and TXT parse back to the same items in the same order',
    async (list, id, length) => {
      const explorer = await serveExplorer();
      const { items } = await itemsOneByOne(explorer, list, id);
      expect(items).toHaveLength(length);
      const listId = list === 'playlist' ? id : undefined;
      const expected = items.map((item) => ({
        ...item,
        [ITEM_URL_FIELD]: itemUrl(list, item, listId),
      }));
      const calls = fixture.upstream.hits();
      for (const format of ['csv', 'json', 'txt'] as const) {
        const response = await explorer.get(exportPath(list, id, format));
        expect(response.status).toBe(200);
        expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="/);
        const back = readBack(list, format, await response.text());
        if (format === 'txt') expect(back).toEqual(expected.map((item) => item[ITEM_URL_FIELD]));
        else expect(back).toEqual(expected);
      }
      // Walked after browsing: every page came from the cache.
      expect(fixture.upstream.hits()).toBe(calls);
    },
    60_000,
  );

  it('an empty list exports a header, an empty array or an empty URL list', async () => {
    const explorer = await serveExplorer();
    // One after the other: a client runs two walks at most.
    const answers = [];
    for (const format of ['csv', 'json', 'txt'] as const) {
      const response = await explorer.get(
        exportPath('playlist', FIXTURE_IDS.playlistEmpty, format),
      );
      answers.push([format, response.status, await response.text()]);
    }
    expect(answers).toEqual([
      [
        'csv',
        200,
        `${[...EXPORT_COLUMNS.playlist.map((c) => c.name), ITEM_URL_FIELD].join(',')}\r\n`,
      ],
      ['json', 200, '[]\n'],
      ['txt', 200, ''],
    ]);
    const none = await explorer.get(
      exportPath('channel-playlists', FIXTURE_IDS.smallChannel, 'txt'),
    );
    expect([none.status, await none.text()]).toEqual([200, '']);
  });

  it('titles with commas, quotes and line breaks survive a CSV round trip', async () => {
    const explorer = await serveExplorer();
    const response = await explorer.get(exportPath('playlist', FIXTURE_IDS.playlist5000, 'csv'));
    const text = await response.text();
    const back = readBack('playlist', 'csv', text) as Array<{ title: string }>;
    const tricky = back.filter((item) => /[",\n]/.test(item.title));
    // The demo catalogue has such titles; if it did not, this test would prove nothing.
    expect(tricky.length).toBeGreaterThan(0);
    expect(text.split('\r\n')[0]).toBe(
      [...EXPORT_COLUMNS.playlist.map((c) => c.name), ITEM_URL_FIELD].join(','),
    );
  });

  it('no cell would run as a formula in a spreadsheet; each reads back as the data', async () => {
    const explorer = await serveExplorer();
    const response = await explorer.get(
      exportPath('playlist', FIXTURE_IDS.playlist5000, 'csv', { bom: true }),
    );
    const bytes = new Uint8Array(await response.arrayBuffer());
    // UTF-8's byte order mark; decoding takes it off, as a reader of the text would.
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes);
    const cells = (parseCsv(text, { record_delimiter: '\r\n' }) as string[][]).flat();
    expect(cells.filter((cell) => /^[=+\-@\t\r\n]/.test(cell))).toEqual([]);
    // Video IDs may begin with `-`, and the demo's do: written with a `'`, read back whole.
    const back = readBack('playlist', 'csv', text) as Array<{ id: string }>;
    const dashed = back.filter((item) => item.id.startsWith('-'));
    expect(dashed.length).toBeGreaterThan(0);
    expect(cells).toContain(`'${dashed[0]!.id}`);
  });

  it('names the file after the list, in ASCII and in full (RFC 6266)', async () => {
    const explorer = await serveExplorer();
    const response = await explorer.get(exportPath('playlist', FIXTURE_IDS.playlist5000, 'txt'));
    await response.text();
    const disposition = response.headers.get('content-disposition') ?? '';
    expect(disposition).toContain('filename="Every talk, 20102026');
    expect(decodeURIComponent(disposition.split("filename*=UTF-8''")[1] ?? '')).toBe(
      'Every talk, 2010–2026 🎤.txt',
    );
  });
});

describe('walks', () => {
  it('a second walk of a cached list costs no upstream call', async () => {
    const explorer = await serveExplorer();
    await summaryOf(explorer, 'playlist', FIXTURE_IDS.playlist5000);
    expect(fixture.upstream.hits()).toBe(50);
    fixture.upstream.reset();
    await summaryOf(explorer, 'playlist', FIXTURE_IDS.playlist5000);
    const response = await explorer.get(exportPath('playlist', FIXTURE_IDS.playlist5000, 'json'));
    expect(await response.json()).toHaveLength(5000);
    expect(fixture.upstream.hits()).toBe(0);
  });

  it('ten clients asking for the same walk at once cause one walk', async () => {
    const explorer = await serveExplorer();
    // A little latency, so that the ten are truly walking together.
    await fixture.setFaults({ latencyMs: 5 });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, n) =>
        explorer
          .get(summaryPath('playlist', FIXTURE_IDS.playlist5000), {
            headers: { 'X-Forwarded-For': `203.0.113.${n + 1}` },
          })
          .then(async (r) => listSummarySchema.parse(await r.json())),
      ),
    );
    for (const summary of answers) expect(summary).toMatchObject({ complete: true, count: 5000 });
    expect(new Set(answers.map((s) => s.measure.total)).size).toBe(1);
    // One walk's worth of upstream calls: 50 pages, each asked for once.
    expect(fixture.upstream.hits()).toBe(50);
  });

  it('the walk stream: a start with the cost, every page, an end that says it is complete', async () => {
    const explorer = await serveExplorer();
    const response = await explorer.get(walkPath('playlist', FIXTURE_IDS.playlist101));
    expect(response.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const events = (await response.text())
      .trim()
      .split('\n')
      .map((line) => walkEventSchema.parse(JSON.parse(line)));
    expect(events.map((e) => e.type)).toEqual(['start', 'page', 'page', 'end']);
    const [start, first, , end] = events;
    expect(start).toMatchObject({
      type: 'start',
      cost: { pages: 2, lookups: 1, affordable: true },
    });
    expect(first).toMatchObject({ type: 'page', param: null, progress: { pages: 1, items: 100 } });
    expect(end).toMatchObject({
      type: 'end',
      complete: true,
      progress: { pages: 2, items: 101, totalItems: 101 },
    });
  });

  it('an upstream failure mid-walk cuts the export so a client can tell; a retry resumes from the cache', async () => {
    const explorer = await serveExplorer({ UPSTREAM_RETRIES: '0', UPSTREAM_BACKOFF_MS: '100' });
    // Pages 1–10 are read and cached, then the upstream fails the next page asked for.
    await summaryOf(explorer, 'playlist', FIXTURE_IDS.playlist5000, { to: 1000 });
    expect(fixture.upstream.hits()).toBe(10);
    await fixture.setFaults({ failNext: { count: 1, status: 500, withContinuation: true } });
    const response = await explorer.get(exportPath('playlist', FIXTURE_IDS.playlist5000, 'csv'));
    expect(response.status).toBe(200);
    // The body ends without its last chunk: reading it fails.
    await expect(response.text()).rejects.toThrow();
    expect(fixture.upstream.hits()).toBe(11);

    // After the page's back-off, the retry reads pages 1–10 from the cache.
    await new Promise((resolve) => setTimeout(resolve, 300));
    fixture.upstream.reset();
    const retry = await explorer.get(exportPath('playlist', FIXTURE_IDS.playlist5000, 'csv'));
    const rows = readBack('playlist', 'csv', await retry.text());
    expect(rows).toHaveLength(5000);
    expect(fixture.upstream.hits()).toBe(40);
  });

  it('the walk stream ends incomplete, and says why, when the upstream fails mid-walk', async () => {
    const explorer = await serveExplorer({ UPSTREAM_RETRIES: '0' });
    await fixture.setFaults({ failNext: { count: 1, status: 503, withContinuation: true } });
    const response = await explorer.get(walkPath('playlist', FIXTURE_IDS.playlist5000));
    const events = (await response.text())
      .trim()
      .split('\n')
      .map((line) => walkEventSchema.parse(JSON.parse(line)));
    const end = events.at(-1);
    expect(end).toMatchObject({ type: 'end', complete: false, progress: { pages: 1 } });
    expect(end?.type === 'end' && end.stoppedBy?.code).toMatch(/^upstream_/);
  });

  it('refuses a walk the hour’s quota cannot cover, with the cost and the wait, before it starts', async () => {
    // The client may spend the whole hour: the quota, not its share, is what this is about.
    const explorer = await serveExplorer({
      CATALOGUE_QUOTA: '30',
      CLIENT_SHARE_OF_WINDOW: '1',
    });
    const cost = await explorer.get(walkCostPath('playlist', FIXTURE_IDS.playlist5000));
    expect(await cost.json()).toMatchObject({
      pages: 50,
      cachedPages: 1,
      lookups: 49,
      affordable: false,
      quota: { budgetPerHour: 30, remaining: 29 },
    });
    for (const path of [
      summaryPath('playlist', FIXTURE_IDS.playlist5000),
      exportPath('playlist', FIXTURE_IDS.playlist5000, 'csv'),
      walkPath('playlist', FIXTURE_IDS.playlist5000),
    ]) {
      const response = await explorer.get(path);
      expect(response.status).toBe(429);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      const problem = await problemOf(response);
      expect(problem).toMatchObject({ code: 'quota_exhausted', cost: { lookups: 49 } });
    }
    // Only the first page was read, to learn the length.
    expect(fixture.upstream.hits()).toBe(1);
    // A range the quota covers is fine.
    const range = await summaryOf(explorer, 'playlist', FIXTURE_IDS.playlist5000, { to: 500 });
    expect(range.count).toBe(500);
  });

  it('a channel’s walk goes on while the quota lasts, then ends as an incomplete answer', async () => {
    const explorer = await serveExplorer({
      CATALOGUE_QUOTA: '20',
      CLIENT_SHARE_OF_WINDOW: '1',
    });
    // Someone else spends 5 of the hour's 20 first: the walk meets the hour's end before its
    // client's share (the whole hour here) runs out.
    const other = { headers: { 'X-Forwarded-For': '198.51.100.20' } };
    const range = await explorer.get(
      summaryPath('playlist', FIXTURE_IDS.playlist5000, { to: 500 }),
      other,
    );
    expect(range.status).toBe(200);
    const summary = await summaryOf(explorer, 'channel-videos', FIXTURE_IDS.bigChannel);
    expect(summary.complete).toBe(false);
    expect(summary.stoppedBy?.code).toBe('quota_exhausted');
    expect(summary.pages).toBe(15);
    expect(summary.count).toBe(15 * 30);
    expect(fixture.upstream.hits()).toBe(20);
  });

  it('a HEAD of a walk or an export leaves no walk running', async () => {
    const explorer = await serveExplorer();
    const client = { headers: { 'X-Forwarded-For': '198.51.100.9' } };
    for (const path of [
      walkPath('playlist', FIXTURE_IDS.playlist101),
      exportPath('playlist', FIXTURE_IDS.playlist101, 'csv'),
      walkPath('channel-videos', FIXTURE_IDS.smallChannel),
    ]) {
      const head = await explorer.get(path, { ...client, method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(await head.text()).toBe('');
    }
    // Three HEADs later the client still has both of its walks.
    const [one, two] = await Promise.all([
      explorer.get(summaryPath('playlist', FIXTURE_IDS.playlist101), client),
      explorer.get(summaryPath('playlist', FIXTURE_IDS.playlist100), client),
    ]);
    expect([one.status, two.status]).toEqual([200, 200]);
  });

  it('a client may run two walks at once; the third is refused', async () => {
    const explorer = await serveExplorer();
    await fixture.setFaults({ latencyMs: 40 });
    const client = { headers: { 'X-Forwarded-For': '198.51.100.7' } };
    const first = await explorer.get(walkPath('channel-videos', FIXTURE_IDS.bigChannel), client);
    const second = await explorer.get(walkPath('playlist', FIXTURE_IDS.playlist5000), client);
    expect([first.status, second.status]).toEqual([200, 200]);
    const third = await explorer.get(summaryPath('playlist', FIXTURE_IDS.playlist101), client);
    expect(third.status).toBe(429);
    expect((await problemOf(third)).code).toBe('too_many_walks');
    expect(third.headers.get('retry-after')).not.toBeNull();
    // Another client is not affected.
    const other = await explorer.get(summaryPath('playlist', FIXTURE_IDS.playlist101), {
      headers: { 'X-Forwarded-For': '198.51.100.8' },
    });
    expect(other.status).toBe(200);
    // A walk whose reader leaves is over: the client may start another.
    await first.body?.cancel();
    await second.body?.cancel();
    await expect
      .poll(
        async () =>
          (await explorer.get(walkCostPath('playlist', FIXTURE_IDS.playlist101), client)).status,
      )
      .toBe(200);
    await expect
      .poll(
        async () =>
          (await explorer.get(summaryPath('playlist', FIXTURE_IDS.playlist101), client)).status,
      )
      .toBe(200);
  });
});
