import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { endpoints, type EndpointName } from '../shared/endpoints.ts';
import { PROBLEM_CONTENT_TYPE, problemSchema } from '../shared/problem.ts';
import { FIXTURE_IDS } from './demo-fixtures.ts';
import { startCatalogue, type StartedCatalogue } from './start-catalogue.ts';
import { sqpFor } from './thumbnails.ts';

// Walks every demo fixture end to end over real HTTP, as a client of the service would: every
// page is checked against the shared schemas, indexes are contiguous, page sizes and `info`
// placement are as specified (spec §3, §4), and the last continuation is null. Each test
// stands alone: the only shared state is the running catalogue, and a test that changes the
// fault switches sets all of them.

const apiKey = randomBytes(12).toString('hex');
const apiSecret = randomBytes(24).toString('hex');
let dataDir: string;
let catalogue: StartedCatalogue;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'catalogue-test-'));
  catalogue = await startCatalogue({ apiKey, apiSecret, dataDir, faultControl: true });
});
afterAll(async () => {
  await catalogue.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function lookupUrl(endpoint: EndpointName, id: string, continuation?: string): string {
  const url = new URL(endpoints[endpoint].path, catalogue.url);
  url.searchParams.set('id', id);
  if (continuation !== undefined) url.searchParams.set('continuation', continuation);
  return url.href;
}

const call = (url: string, init: RequestInit = {}) =>
  fetch(url, { ...init, headers: { 'API-Key': apiKey, 'API-Secret': apiSecret, ...init.headers } });

/** Follows continuations to the end, checking every page against the endpoint's schema. */
async function walk<E extends EndpointName>(endpoint: E, id: string) {
  const pages: Array<z.infer<(typeof endpoints)[E]['pageSchema']>> = [];
  let continuation: string | undefined;
  do {
    const response = await call(lookupUrl(endpoint, id, continuation));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const page = endpoints[endpoint].pageSchema.parse(await response.json()) as z.infer<
      (typeof endpoints)[E]['pageSchema']
    >;
    pages.push(page);
    continuation = page.continuation ?? undefined;
    expect(pages.length).toBeLessThan(1000);
  } while (continuation !== undefined);
  return pages;
}

async function expectProblem(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe(PROBLEM_CONTENT_TYPE);
  const body = problemSchema.parse(await response.json());
  expect(body).toMatchObject({ status, code });
  expect(body.detail.length).toBeGreaterThan(0);
  return body;
}

describe('playlists', () => {
  it.each([
    [FIXTURE_IDS.playlist5000, 5000, 50],
    [FIXTURE_IDS.playlist20000, 20000, 200],
    [FIXTURE_IDS.playlist101, 101, 2],
    [FIXTURE_IDS.playlist100, 100, 1],
    [FIXTURE_IDS.playlistEmpty, 0, 1],
  ])('%s holds %i videos in %i pages', async (id, total, pageCount) => {
    const pages = await walk('playlist', id);
    expect(pages).toHaveLength(pageCount);
    // §4.1: info only on the first page, and it tells the true total.
    expect(pages[0]?.info).toMatchObject({ id, totalItems: total });
    expect(pages.slice(1).every((p) => p.info === undefined)).toBe(true);
    // Full pages of 100, never an empty trailing page (an empty playlist is one empty page).
    pages.forEach((page, i) => {
      const expected = i < pageCount - 1 ? 100 : total - 100 * (pageCount - 1);
      expect(page.items).toHaveLength(expected);
    });
    const indexes = pages.flatMap((p) => p.items.map((item) => item.index));
    expect(indexes).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    expect(pages.at(-1)?.continuation).toBeNull();
  });

  it('keeps a video that appears twice, as the platform does', async () => {
    const pages = await walk('playlist', FIXTURE_IDS.playlist5000);
    const ids = pages.flatMap((p) => p.items.map((item) => item.id));
    expect(new Set(ids).size).toBeLessThan(ids.length);
  });

  it('answers 404 for an unknown or malformed playlist ID, as spec §4.1 rule 1 says', async () => {
    await expectProblem(
      await call(lookupUrl('playlist', 'PLdoesNotExist0000000000000000000000')),
      404,
      'playlist_not_found',
    );
    await expectProblem(
      await call(lookupUrl('playlist', 'not a playlist')),
      404,
      'playlist_not_found',
    );
  });
});

describe('channels', () => {
  it('pages the big channel’s 10,000 videos in 30s, newest first, with some null publishedText', async () => {
    const pages = await walk('channel-videos', FIXTURE_IDS.bigChannel);
    const items = pages.flatMap((p) => p.items);
    expect(items).toHaveLength(10_000);
    expect(new Set(items.map((v) => v.id)).size).toBe(10_000);
    expect(pages.slice(0, -1).every((p) => p.items.length === 30)).toBe(true);
    expect(pages.at(-1)?.items).toHaveLength(10);
    expect(items.some((v) => v.publishedText === null)).toBe(true);
    expect(pages.at(-1)?.continuation).toBeNull();
  });

  it('pages the big channel’s 250 playlists, which include the playlist fixtures', async () => {
    const pages = await walk('channel-playlists', FIXTURE_IDS.bigChannel);
    const items = pages.flatMap((p) => p.items);
    expect(items).toHaveLength(250);
    expect(pages.map((p) => p.items.length)).toEqual([30, 30, 30, 30, 30, 30, 30, 30, 10]);
    expect(items.find((p) => p.id === FIXTURE_IDS.playlist5000)?.videoCount).toBe(5000);
  });

  it('gives the small channel 45 videos and the empty playlists answer of spec §4.3 rule 1', async () => {
    const videos = await walk('channel-videos', FIXTURE_IDS.smallChannel);
    expect(videos.map((p) => p.items.length)).toEqual([30, 15]);
    const playlists = await walk('channel-playlists', FIXTURE_IDS.smallChannel);
    expect(playlists).toEqual([{ items: [], continuation: null }]);
  });

  it('answers 400 for a malformed channel ID and 404 for an unknown one', async () => {
    for (const endpoint of ['channel-videos', 'channel-playlists'] as const) {
      await expectProblem(await call(lookupUrl(endpoint, 'UCshort')), 400, 'invalid_id');
      await expectProblem(
        await call(lookupUrl(endpoint, 'UCxxxxxxxxxxxxxxxxxxxxxx')),
        404,
        'channel_not_found',
      );
    }
  });
});

describe('generated data', () => {
  it('passes the schemas beyond the fixtures: every playlist of the big channel and their channels', async () => {
    const listed = (await walk('channel-playlists', FIXTURE_IDS.bigChannel)).flatMap(
      (p) => p.items,
    );
    const channels = new Set<string>();
    for (const { id } of listed) {
      const [first] = await walk('playlist', id);
      first?.items.forEach((item) => channels.add(item.channelId));
    }
    expect(channels.size).toBeGreaterThan(50);
    for (const id of [...channels].slice(0, 60)) {
      const response = await call(lookupUrl('channel-videos', id));
      endpoints['channel-videos'].pageSchema.parse(await response.json());
      const playlists = await call(lookupUrl('channel-playlists', id));
      endpoints['channel-playlists'].pageSchema.parse(await playlists.json());
    }
  });
});

describe('continuations', () => {
  async function firstContinuation(endpoint: EndpointName, id: string): Promise<string> {
    const page = (await (await call(lookupUrl(endpoint, id))).json()) as { continuation: string };
    expect(typeof page.continuation).toBe('string');
    return page.continuation;
  }

  it('refuses garbage', async () => {
    for (const garbage of ['abc', 'not base64!', '%%%', 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA']) {
      await expectProblem(
        await call(lookupUrl('playlist', FIXTURE_IDS.playlist5000, garbage)),
        400,
        'invalid_continuation',
      );
    }
  });

  it('refuses a tampered continuation', async () => {
    const token = await firstContinuation('playlist', FIXTURE_IDS.playlist5000);
    const raw = Buffer.from(token, 'base64');
    raw[raw.length - 3] = (raw[raw.length - 3] ?? 0) ^ 0x01; // inside the signed body
    const body = await expectProblem(
      await call(lookupUrl('playlist', FIXTURE_IDS.playlist5000, raw.toString('base64'))),
      400,
      'invalid_continuation',
    );
    expect(body.detail).toMatch(/altered/);
  });

  it('refuses a continuation issued for another ID or another endpoint', async () => {
    const playlistToken = await firstContinuation('playlist', FIXTURE_IDS.playlist5000);
    await expectProblem(
      await call(lookupUrl('playlist', FIXTURE_IDS.playlist101, playlistToken)),
      400,
      'invalid_continuation',
    );
    const videosToken = await firstContinuation('channel-videos', FIXTURE_IDS.bigChannel);
    await expectProblem(
      await call(lookupUrl('channel-playlists', FIXTURE_IDS.bigChannel, videosToken)),
      400,
      'invalid_continuation',
    );
    await expectProblem(
      await call(lookupUrl('channel-videos', FIXTURE_IDS.smallChannel, videosToken)),
      400,
      'invalid_continuation',
    );
  });
});

describe('requests', () => {
  it('answers 401 to missing or wrong credentials', async () => {
    const url = lookupUrl('playlist', FIXTURE_IDS.playlist100);
    await expectProblem(await fetch(url), 401, 'unauthorized');
    await expectProblem(await fetch(url, { headers: { 'API-Key': apiKey } }), 401, 'unauthorized');
    await expectProblem(
      await fetch(url, { headers: { 'API-Key': apiKey, 'API-Secret': `${apiSecret}x` } }),
      401,
      'unauthorized',
    );
    await expectProblem(
      await fetch(url, { headers: { 'API-Key': apiSecret, 'API-Secret': apiKey } }),
      401,
      'unauthorized',
    );
  });

  it('answers 405 to methods other than GET and HEAD', async () => {
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const response = await call(lookupUrl('playlist', FIXTURE_IDS.playlist100), { method });
      await expectProblem(response, 405, 'method_not_allowed');
      expect(response.headers.get('allow')).toBe('GET, HEAD');
    }
    const head = await call(lookupUrl('playlist', FIXTURE_IDS.playlist100), { method: 'HEAD' });
    expect(head.status).toBe(200);
  });

  it('answers 400 to a missing or repeated parameter and 404 to unknown paths', async () => {
    await expectProblem(await call(`${catalogue.url}/api/v1/playlist`), 400, 'missing_id');
    await expectProblem(
      await call(
        `${catalogue.url}/api/v1/channel-videos?id=${FIXTURE_IDS.bigChannel}&id=${FIXTURE_IDS.smallChannel}`,
      ),
      400,
      'repeated_parameter',
    );
    await expectProblem(await call(`${catalogue.url}/api/v2/playlist?id=x`), 404, 'not_found');
  });

  it('serves the thumbnails it hands out as JPEGs of the stated sizes, without credentials', async () => {
    const page = endpoints.playlist.pageSchema.parse(
      await (await call(lookupUrl('playlist', FIXTURE_IDS.playlist101))).json(),
    );
    const listed = [...(page.info?.thumbnails ?? []), ...page.items[0]!.thumbnails];
    expect(listed.length).toBe(8);
    const expectImage = async (url: string, width: number, height: number) => {
      const response = await fetch(url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/jpeg');
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
      expect([meta.format, meta.width, meta.height], url).toEqual(['jpeg', width, height]);
      // A strong validator: a client holding the image gets a 304, not the bytes again.
      const etag = response.headers.get('etag') ?? '';
      expect(etag).toMatch(/^"[^"]+"$/);
      const again = await fetch(url, { headers: { 'If-None-Match': etag } });
      expect(again.status).toBe(304);
      expect(again.headers.get('etag')).toBe(etag);
    };
    for (const { url, width, height } of listed) await expectImage(url, width, height);
    // The image host's fixed names, for previews and share cards.
    const id = page.items[0]!.id;
    for (const [name, width, height] of [
      ['default', 120, 90],
      ['mqdefault', 320, 180],
      ['hqdefault', 480, 360],
      ['sddefault', 640, 480],
      ['maxresdefault', 1280, 720],
    ] as const) {
      await expectImage(`${catalogue.url}/thumbnails/vi/${id}/${name}.jpg`, width, height);
    }
    // Nothing it never handed out: another size or name, an ID it does not have, the old SVGs.
    for (const path of [
      `/thumbnails/vi/${id}/hqdefault.jpg?sqp=${sqpFor(1000, 1000)}`,
      `/thumbnails/vi/${id}/huge.jpg`,
      `/thumbnails/vi/${id}/hqdefault.svg`,
      '/thumbnails/vi/xxxxxxxxxxx/default.jpg',
      `/thumbnails/pl/${id}/default.jpg`,
    ]) {
      expect((await fetch(`${catalogue.url}${path}`)).status, path).toBe(404);
    }
  });
});

describe('fault switches', () => {
  const setFaults = async (settings: object) => {
    const response = await fetch(`${catalogue.url}/__faults`, {
      method: 'PUT',
      body: JSON.stringify(settings),
    });
    expect(response.status).toBe(200);
  };

  it('fails the next matching requests, then recovers', async () => {
    await setFaults({
      failNext: { count: 2, status: 500, endpoint: 'playlist', withContinuation: true },
    });
    const first = await call(lookupUrl('playlist', FIXTURE_IDS.playlist101));
    expect(first.status).toBe(200); // page 1 carries no continuation: not matched
    const { continuation } = (await first.json()) as { continuation: string };
    await expectProblem(
      await call(lookupUrl('playlist', FIXTURE_IDS.playlist101, continuation)),
      500,
      'injected_fault',
    );
    await expectProblem(
      await call(lookupUrl('playlist', FIXTURE_IDS.playlist101, continuation)),
      500,
      'injected_fault',
    );
    expect((await call(lookupUrl('playlist', FIXTURE_IDS.playlist101, continuation))).status).toBe(
      200,
    );
  });

  it('answers 429 with Retry-After, malformed bodies and added latency', async () => {
    await setFaults({ rate429Rate: 1, retryAfterSeconds: 7 });
    const limited = await call(lookupUrl('playlist', FIXTURE_IDS.playlist100));
    expect(limited.headers.get('retry-after')).toBe('7');
    expect((await expectProblem(limited, 429, 'rate_limited')).retryAfter).toBe(7);

    await setFaults({ malformedRate: 1 });
    const malformed = await call(lookupUrl('playlist', FIXTURE_IDS.playlist100));
    expect(malformed.status).toBe(200);
    await expect(malformed.json()).rejects.toThrow();

    await setFaults({ latencyMs: 150 });
    const started = performance.now();
    expect((await call(lookupUrl('playlist', FIXTURE_IDS.playlist100))).status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);

    expect((await fetch(`${catalogue.url}/__faults`, { method: 'DELETE' })).status).toBe(200);
    expect((await call(lookupUrl('playlist', FIXTURE_IDS.playlist100))).status).toBe(200);
  });
});
