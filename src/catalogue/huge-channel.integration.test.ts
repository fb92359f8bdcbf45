import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints, type EndpointName } from '../shared/endpoints.ts';
import { PROBLEM_CONTENT_TYPE, problemSchema } from '../shared/problem.ts';
import type { ChannelVideosPage } from '../shared/catalogue-schema.ts';
import { VIDEO_ID_PATTERN } from '../shared/id-patterns.ts';
import { openDemoStore } from './catalogue-db.ts';
import { continuationPlace, createContinuationCodec } from './continuation.ts';
import { generateDemoCatalogue } from './demo-data.ts';
import { DEMO_ENTRIES, FIXTURE_IDS, HUGE_CHANNEL_VIDEOS } from './demo-fixtures.ts';
import {
  firstIndexAfter,
  hugeChannelVideo,
  hugeChannelVideoId,
  hugeChannelVideoIndex,
  publishedAtOf,
  withHugeChannel,
} from './huge-channel.ts';
import { startCatalogue, type StartedCatalogue } from './start-catalogue.ts';

// The huge channel (300,000 videos made on demand, never stored), over real HTTP as a client
// walks it: 30 per page newest first (spec §4.2), every page passing the shared schemas, the
// last one full with a null continuation (spec §2.6), the same records from every instance,
// and the fault switches acting on it as on any lookup. All 10,000 pages are walked through
// the store (a second); over HTTP, 200 pages from the start, then the middle and the end
// through continuations signed with the key the test gives the catalogue, since a full walk
// over sockets takes half a minute.

const HUGE = FIXTURE_IDS.hugeChannel;
const PAGES = HUGE_CHANNEL_VIDEOS / 30;
const CONTINUATION_KEY = randomBytes(16).toString('hex');

interface Client {
  catalogue: StartedCatalogue;
  apiKey: string;
  apiSecret: string;
}

let dataDir: string;
let one: Client;
let other: Client;

async function start(continuationKey?: string): Promise<Client> {
  const apiKey = randomBytes(12).toString('hex');
  const apiSecret = randomBytes(24).toString('hex');
  const catalogue = await startCatalogue({
    apiKey,
    apiSecret,
    continuationKey,
    dataDir,
    faultControl: true,
  });
  return { catalogue, apiKey, apiSecret };
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'huge-channel-test-'));
  // Two instances with different secrets, so different continuation keys; the second reuses
  // the database file the first built, which holds nothing of the huge channel anyway.
  one = await start(CONTINUATION_KEY);
  other = await start();
});
afterAll(async () => {
  await one.catalogue.close();
  await other.catalogue.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function lookupUrl(
  client: Client,
  endpoint: EndpointName,
  id: string,
  continuation?: string,
): string {
  const url = new URL(endpoints[endpoint].path, client.catalogue.url);
  url.searchParams.set('id', id);
  if (continuation !== undefined) url.searchParams.set('continuation', continuation);
  return url.href;
}

const call = (client: Client, url: string) =>
  fetch(url, { headers: { 'API-Key': client.apiKey, 'API-Secret': client.apiSecret } });

async function videosPage(client: Client, continuation?: string): Promise<ChannelVideosPage> {
  const response = await call(client, lookupUrl(client, 'channel-videos', HUGE, continuation));
  expect(response.status).toBe(200);
  return endpoints['channel-videos'].pageSchema.parse(await response.json());
}

/** The first `count` pages, following continuations from page 1. */
async function firstPages(client: Client, count: number): Promise<ChannelVideosPage[]> {
  const pages: ChannelVideosPage[] = [];
  let continuation: string | undefined;
  while (pages.length < count) {
    const page = await videosPage(client, continuation);
    pages.push(page);
    if (page.continuation === null) break;
    continuation = page.continuation;
  }
  return pages;
}

async function expectProblem(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe(PROBLEM_CONTENT_TYPE);
  expect(problemSchema.parse(await response.json())).toMatchObject({ status, code });
}

describe('the huge channel’s records', () => {
  it('are made from the index alone: real-shaped IDs, unique, giving their index back, newest first', () => {
    const ids = new Set<string>();
    const wrong: number[] = [];
    let previous = Infinity;
    for (let index = 0; index < HUGE_CHANNEL_VIDEOS; index++) {
      const id = hugeChannelVideoId(index);
      ids.add(id);
      const published = publishedAtOf(index);
      // Strictly falling: no ties, so the keyset order is the index order.
      if (
        hugeChannelVideoIndex(id) !== index ||
        !VIDEO_ID_PATTERN.test(id) ||
        published >= previous
      )
        wrong.push(index);
      previous = published;
    }
    expect(wrong).toEqual([]);
    expect(ids.size).toBe(HUGE_CHANNEL_VIDEOS);
    expect(hugeChannelVideo(123_456)).toEqual(hugeChannelVideo(123_456));
    expect(hugeChannelVideo(123_456).publishedAt).toBe(publishedAtOf(123_456));
    for (const id of ['dQw4w9WgXcQ', 'AAAAAAAAAAA', 'short', 'x'.repeat(12), 'ünïcödé___'])
      expect(hugeChannelVideoIndex(id)).toBeNull();
  });

  it('page through the store to the end: 10,000 pages of 30, the last without more', () => {
    const store = withHugeChannel(openDemoStore(dataDir));
    let after: [number, string] | null = null;
    let count = 0;
    let pages = 0;
    for (;;) {
      const { rows, hasMore } = store.channelVideos(HUGE, after, 30);
      if (rows.length !== 30 || rows[0]?.id !== hugeChannelVideoId(count)) break;
      count += rows.length;
      pages++;
      const last = rows.at(-1)!;
      after = [last.publishedAt, last.id];
      if (!hasMore) break;
    }
    expect([pages, count]).toEqual([PAGES, HUGE_CHANNEL_VIDEOS]);
    expect(store.channelExists(HUGE)).toBe(true);
    expect(store.videoExists(hugeChannelVideoId(HUGE_CHANNEL_VIDEOS - 1))).toBe(true);
    expect(store.channelPlaylists(HUGE, -1, 30)).toEqual({ rows: [], hasMore: false });
    store.close();
  });

  it('are not in the database: the generated catalogue holds neither the channel nor its IDs', () => {
    const { channels, videos } = generateDemoCatalogue();
    expect(channels.some((c) => c.id === HUGE)).toBe(false);
    expect(videos.some((v) => hugeChannelVideoIndex(v.id) !== null)).toBe(false);
    expect(DEMO_ENTRIES.find((e) => e.id === HUGE)).toMatchObject({ kind: 'channel' });
  });

  it('seek as the database does: any keyset lands after the video it names or its time', () => {
    const at = (index: number): [number, string] => [
      publishedAtOf(index),
      hugeChannelVideoId(index),
    ];
    expect(firstIndexAfter(null)).toBe(0);
    expect(firstIndexAfter(at(0))).toBe(1);
    expect(firstIndexAfter(at(149_999))).toBe(150_000);
    expect(firstIndexAfter(at(HUGE_CHANNEL_VIDEOS - 1))).toBe(HUGE_CHANNEL_VIDEOS);
    // A time between two videos, or one with a smaller ID than the video's own.
    expect(firstIndexAfter([publishedAtOf(10) + 1, ''])).toBe(10);
    expect(firstIndexAfter([publishedAtOf(10), ''])).toBe(11);
    expect(firstIndexAfter([publishedAtOf(10), '~'])).toBe(10);
  });
});

describe('the huge channel over HTTP', () => {
  it('starts with its 30 newest videos and a continuation', async () => {
    const page = await videosPage(one);
    expect(page.items).toHaveLength(30);
    expect(page.items.map((v) => v.id)).toEqual(
      Array.from({ length: 30 }, (_, i) => hugeChannelVideoId(i)),
    );
    expect(typeof page.continuation).toBe('string');
    const first = page.items[0]!;
    expect(first.thumbnails).toHaveLength(4);
    expect(first.descriptionSnippet.length).toBeGreaterThan(0);
  });

  it('follows its continuations through 200 pages: newest first, nothing skipped or repeated', async () => {
    const pages = await firstPages(one, 200);
    expect(pages).toHaveLength(200);
    const ids = pages.flatMap((p) => p.items.map((v) => v.id));
    expect(ids).toEqual(Array.from({ length: 200 * 30 }, (_, i) => hugeChannelVideoId(i)));
    expect(pages.every((p) => p.items.length === 30 && p.continuation !== null)).toBe(true);
    expect(
      ids.some((_, i) => pages[Math.floor(i / 30)]!.items[i % 30]!.publishedText === null),
    ).toBe(true);
  });

  it('goes on from the middle, and ends with a full page and a null continuation', async () => {
    // A continuation of the catalogue's own format, signed with the key the test gave it:
    // the keyset of the video before page 5,001 and of the one before page 9,999.
    const codec = createContinuationCodec(CONTINUATION_KEY);
    const after = (index: number) =>
      codec.encode('channel-videos', HUGE, [publishedAtOf(index), hugeChannelVideoId(index)]);
    const middle = await videosPage(one, after(5000 * 30 - 1));
    const next = await videosPage(one, middle.continuation!);
    expect([...middle.items, ...next.items].map((v) => v.id)).toEqual(
      Array.from({ length: 60 }, (_, i) => hugeChannelVideoId(150_000 + i)),
    );
    const beforeLast = await videosPage(one, after((PAGES - 2) * 30 - 1));
    expect(beforeLast.continuation).not.toBeNull();
    const last = await videosPage(one, beforeLast.continuation!);
    expect(last.items.map((v) => v.id)).toEqual(
      Array.from({ length: 30 }, (_, i) => hugeChannelVideoId(HUGE_CHANNEL_VIDEOS - 30 + i)),
    );
    expect(last.continuation).toBeNull();
    // The same continuation, the same page, however often it is asked for.
    expect(await videosPage(one, beforeLast.continuation!)).toEqual(last);
  });

  it('is the same from another instance: the same records, continuations to the same place', async () => {
    const [mine, theirs] = await Promise.all([firstPages(one, 50), firstPages(other, 50)]);
    // Thumbnail URLs carry each instance's own origin.
    const strip = (pages: ChannelVideosPage[], origin: string) =>
      JSON.parse(JSON.stringify(pages.map((p) => p.items)).replaceAll(origin, '')) as unknown;
    expect(strip(theirs, other.catalogue.url)).toEqual(strip(mine, one.catalogue.url));
    expect(theirs.map((p) => continuationPlace(p.continuation!))).toEqual(
      mine.map((p) => continuationPlace(p.continuation!)),
    );
    // Signed with another key: one instance's continuation is not the other's.
    expect(theirs[0]!.continuation).not.toBe(mine[0]!.continuation);
  });

  it('answers an empty playlists tab, and refuses its continuations for another channel', async () => {
    const response = await call(one, lookupUrl(one, 'channel-playlists', HUGE));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ items: [], continuation: null });
    const { continuation } = await videosPage(one);
    await expectProblem(
      await call(one, lookupUrl(one, 'channel-videos', FIXTURE_IDS.bigChannel, continuation!)),
      400,
      'invalid_continuation',
    );
  });

  it('serves its videos’ thumbnails like any video’s, without storing the videos', async () => {
    const [, , third] = await firstPages(one, 3);
    const video = third!.items[7]!;
    for (const { url, width, height } of video.thumbnails) {
      const response = await fetch(url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/jpeg');
      const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
      expect([meta.width, meta.height]).toEqual([width, height]);
    }
    const deep = hugeChannelVideoId(HUGE_CHANNEL_VIDEOS - 1);
    expect((await fetch(`${one.catalogue.url}/thumbnails/vi/${deep}/default.jpg`)).status).toBe(
      200,
    );
    expect((await fetch(`${one.catalogue.url}/thumbnails/pl/${deep}/default.jpg`)).status).toBe(
      404,
    );
    // Only the database file sits beside the images: nothing of the channel was written to it.
    expect(readdirSync(dataDir).filter((name) => name.endsWith('.sqlite'))).toHaveLength(1);
  });

  it('meets the fault switches like any lookup', async () => {
    const setFaults = async (settings: object) => {
      const response = await fetch(`${one.catalogue.url}/__faults`, {
        method: 'PUT',
        body: JSON.stringify(settings),
      });
      expect(response.status).toBe(200);
    };
    const { continuation } = await videosPage(one);
    await setFaults({
      failNext: { count: 1, status: 500, endpoint: 'channel-videos', withContinuation: true },
    });
    await expectProblem(
      await call(one, lookupUrl(one, 'channel-videos', HUGE, continuation!)),
      500,
      'injected_fault',
    );
    expect((await videosPage(one, continuation!)).items).toHaveLength(30);

    await setFaults({ rate429Rate: 1, retryAfterSeconds: 5 });
    const limited = await call(one, lookupUrl(one, 'channel-videos', HUGE));
    expect(limited.headers.get('retry-after')).toBe('5');
    await expectProblem(limited, 429, 'rate_limited');

    await setFaults({ latencyMs: 120 });
    const started = performance.now();
    await videosPage(one, continuation!);
    expect(performance.now() - started).toBeGreaterThanOrEqual(110);

    expect((await fetch(`${one.catalogue.url}/__faults`, { method: 'DELETE' })).status).toBe(200);
  });
});
