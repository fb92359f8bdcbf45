import { Pool } from 'undici';
import { FIXTURE_IDS } from '../src/catalogue/demo-fixtures.ts';
import { channelPath, playlistPath } from '../src/shared/app-routes.ts';
import { endpoints } from '../src/shared/endpoints.ts';
import { feedPath } from '../src/shared/feeds.ts';
import { exportPath } from '../src/shared/whole-list.ts';
import { cardPath } from '../src/server/cards/card-address.ts';
import { residentBytes, statusBytes } from '../src/test-support/memory-probe.ts';
import {
  familyTotal,
  SCRAPE_TOKEN,
  scrapeCache,
  scrapeSamples,
} from '../src/test-support/metrics-scrape.ts';
import { MAX_TAILS } from '../src/server/feeds/feed-source.ts';
import { sideCaches } from '../src/server/process/side-caches.ts';
import { startExplorer } from './explorer.ts';
import { pathOf } from './soak-traffic.ts';
import type { BenchRow } from './table.ts';

// Bench "memory": the memory plan the server says at start (process/memory-plan.ts, on /metrics
// as explorer_memory_plan_bytes) against the resident memory a loaded process reaches. The
// built server as `npm start` runs it (its flags, the default 64 MiB page cache, the embedded
// catalogue, chain warming on), sampled every 20 ms from /proc while one bench client fills
// what the plan counts: app pages rendered, the page cache past its size with pages asked for
// plain and compressed, the two big playlists exported, a feed of every playlist the catalogue
// has, preview cards until their 16 MiB, and last a burst that needs working room. The plan
// counts every side cache at its bound; feed tails past the catalogue's 254 playlists, channel
// titles (5,000, of three channels), failing pages (10,000, with no faults) and renders without
// a page cannot be reached here, so the peak stays below the plan by those and by whatever of
// the working room the burst did not use: the second row takes the unreachable ones out.

const MiB = 2 ** 20;
const CONNECTIONS = 8;

interface Load {
  /** App pages rendered: the 5,000-video playlist at as many positions. */
  views: number;
  /** Most pages walked through the 300,000-video channel (stops once the cache is full). */
  pages: number;
  /** Exports of the two big playlists (5,000 and 20,000 items) in full. */
  exports: boolean;
  /** Feeds, at most: every playlist of the big channel, then the demo ones. */
  feeds: number;
  /** Preview cards: items of the 5,000-video playlist, each a card of its own. */
  cards: number;
  /**
   * Last, with every cache full, a burst of what needs working room at once: the big
   * playlists exported again in two more formats, each by a client of its own, while this
   * many views of the 20,000-item playlist are rendered.
   */
  burstViews: number;
}

async function get(
  pool: Pool,
  path: string,
  headers: Record<string, string> = {},
): Promise<string> {
  const { statusCode, body } = await pool.request({ method: 'GET', path, headers });
  const text = await body.text();
  if (statusCode !== 200) throw new Error(`${path}: ${statusCode} ${text.slice(0, 200)}`);
  return text;
}

/** Runs `work` over `items`, CONNECTIONS at a time. */
async function each<T>(items: readonly T[], work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

/** The lists exported: the two big playlists, or in a smoke run the 100-item one. */
const exported = (load: Load) =>
  load.exports
    ? {
        ids: [FIXTURE_IDS.playlist5000, FIXTURE_IDS.playlist20000],
        named: 'the 5,000- and 20,000-item playlists',
      }
    : { ids: [FIXTURE_IDS.playlist100], named: 'the 100-item playlist' };

/** Every playlist of the big channel, page by page. */
async function channelPlaylists(pool: Pool): Promise<string[]> {
  const ids: string[] = [];
  let continuation: string | undefined;
  do {
    const page = endpoints['channel-playlists'].pageSchema.parse(
      JSON.parse(
        await get(
          pool,
          pathOf({ endpoint: 'channel-playlists', id: FIXTURE_IDS.bigChannel, continuation }),
        ),
      ),
    );
    ids.push(...page.items.map((item) => item.id));
    continuation = page.continuation ?? undefined;
  } while (continuation !== undefined);
  return ids;
}

export async function benchMemoryPlan(load: Load): Promise<BenchRow[]> {
  const explorer = await startExplorer(undefined, {
    METRICS_TOKEN: SCRAPE_TOKEN,
    // As `npm start` runs: chain warming on, the page cache at its default.
    CHAIN_WARM_SHARE: undefined,
    // The burst's exporters are clients of their own (X-Forwarded-For, trusted here).
    TRUST_PROXY: 'true',
    // One client asking for what a crowd would: its allowances must not stand in the way.
    RENDER_RATE_LIMIT_BURST: '100000000',
    RENDER_RATE_LIMIT_PER_SECOND: '100000000',
  });
  const pid = explorer.child.process.pid!;
  const pool = new Pool(explorer.url, { connections: CONNECTIONS });
  const start = residentBytes(pid) ?? 0;
  let peak = start;
  const sampler = setInterval(() => (peak = Math.max(peak, residentBytes(pid) ?? 0)), 20);
  const done: string[] = [];
  /** What a phase did, and the resident memory it left. */
  const note = (what: string) =>
    done.push(`${what} (→ ${((residentBytes(pid) ?? 0) / MiB).toFixed(0)} MiB)`);
  try {
    const plan = familyTotal(await scrapeSamples(explorer.url), 'explorer_memory_plan_bytes');

    await each(
      Array.from({ length: load.views }, (_, i) =>
        playlistPath(FIXTURE_IDS.playlist5000, { index: 1 + ((i * 97) % 5000) }),
      ),
      (path) => get(pool, path, { accept: 'text/html' }),
    );
    await get(pool, channelPath(FIXTURE_IDS.hugeChannel), { accept: 'text/html' });
    note(`${load.views} views rendered`);

    // The page cache past its size: each page plain, and compressed as a browser asks.
    let continuation: string | undefined;
    let pages = 0;
    for (; pages < load.pages; pages++) {
      const path = pathOf({
        endpoint: 'channel-videos',
        id: FIXTURE_IDS.hugeChannel,
        continuation,
      });
      const page = endpoints['channel-videos'].pageSchema.parse(JSON.parse(await get(pool, path)));
      await Promise.all([
        get(pool, path, { 'accept-encoding': 'br' }),
        get(pool, path, { 'accept-encoding': 'gzip' }),
      ]);
      continuation = page.continuation ?? undefined;
      if (continuation === undefined) break;
      if (pages % 100 === 99) {
        const cache = await scrapeCache(explorer.url);
        if (cache.evictions > 0 && pages > 2 * cache.entries) break;
      }
    }
    const cache = await scrapeCache(explorer.url);
    note(
      `${pages.toLocaleString('en')} pages (cache ${(cache.bytes / MiB).toFixed(0)} of ${(cache.maxBytes / MiB).toFixed(0)} MiB, ${cache.evictions.toLocaleString('en')} evicted)`,
    );

    const lists = exported(load);
    await Promise.all(lists.ids.map((id) => get(pool, exportPath('playlist', id, 'csv'))));
    note(`${lists.named} exported`);

    const playlists = [
      ...(await channelPlaylists(pool)),
      FIXTURE_IDS.playlist5000,
      FIXTURE_IDS.playlist20000,
      FIXTURE_IDS.playlist101,
      FIXTURE_IDS.playlist100,
    ].slice(0, load.feeds);
    await each(playlists, (id) => get(pool, feedPath('playlist', id, 'json')));
    const feeds = playlists.length;
    note(`${playlists.length} feeds`);

    let cardBytes = 0;
    await each(
      Array.from({ length: load.cards }, (_, i) =>
        cardPath(playlistPath(FIXTURE_IDS.playlist5000), i + 1),
      ),
      async (path) => {
        const { statusCode, body } = await pool.request({ method: 'GET', path });
        cardBytes += (await body.arrayBuffer()).byteLength;
        if (statusCode !== 200) throw new Error(`${path}: ${statusCode}`);
      },
    );
    note(`${load.cards} cards (${(cardBytes / MiB).toFixed(1)} MiB of PNG)`);

    const before = residentBytes(pid) ?? 0;
    const burstPeak = peak;
    peak = before;
    const exporters = new Pool(explorer.url, { connections: 4 });
    try {
      await Promise.all([
        ...lists.ids.flatMap((id, i) =>
          (['json', 'txt'] as const).map((format, j) =>
            get(exporters, exportPath('playlist', id, format), {
              'x-forwarded-for': `192.0.2.${10 + 2 * i + j}`,
            }),
          ),
        ),
        each(
          Array.from({ length: load.burstViews }, (_, i) =>
            playlistPath(FIXTURE_IDS.playlist20000, { index: 1 + ((i * 211) % 20_000) }),
          ),
          (path) => get(pool, path, { accept: 'text/html' }),
        ),
      ]);
    } finally {
      await exporters.close();
    }
    const room = peak - before;
    peak = Math.max(peak, burstPeak);
    note(
      `a burst: ${lists.named} exported again in two formats while ${load.burstViews} more views rendered, ${(room / MiB).toFixed(0)} MiB over the level before it`,
    );

    clearInterval(sampler);
    const end = residentBytes(pid) ?? 0;
    // Where it is, as V8 and Node count it: the heap, and Buffers outside it.
    const samples = await scrapeSamples(explorer.url);
    const figure = (name: string) => (familyTotal(samples, name) / MiB).toFixed(0);
    const mapped = (field: 'RssAnon' | 'RssFile') =>
      ((statusBytes(pid, field) ?? 0) / MiB).toFixed(0);
    done.push(
      `at the end: ${mapped('RssAnon')} MiB anonymous, ${mapped('RssFile')} MiB of files mapped; heap ${figure('explorer_nodejs_heap_size_used_bytes')} MiB used of ${figure('explorer_nodejs_heap_size_total_bytes')}, ${figure('explorer_nodejs_external_memory_bytes')} MiB external`,
    );
    const ratio = plan / peak;
    // The plan counts every side cache at its bound; what this catalogue cannot fill (it has
    // 254 playlists for 1,000 feed tails, three channels for 5,000 titles, no failing pages)
    // is taken out at the share left unfilled, for the plan this load could reach.
    const feedShare = Math.min(1, feeds / MAX_TAILS);
    const unfilled: Record<string, number> = {
      'feed tails': 1 - feedShare,
      'feed items’ first dates': 1 - feedShare,
      'channel titles': 1,
      'failing pages’ back-off': 1,
      'renders without a page': 1,
    };
    const sides = sideCaches();
    for (const name of Object.keys(unfilled))
      if (!sides.some((cache) => cache.name === name)) throw new Error(`no side cache ${name}`);
    const unreached = sides.reduce(
      (sum, cache) => sum + cache.bytes * (unfilled[cache.name] ?? 0),
      0,
    );
    const reachable = (plan - unreached) / peak;
    return [
      {
        bench: 'memory',
        measure: `resident memory under load, at its peak (sampled every 20 ms): ${done.join('; ')}`,
        figure: `${(peak / MiB).toFixed(0)} MiB (${(start / MiB).toFixed(0)} at start, ${(end / MiB).toFixed(0)} at the end)`,
        reference: `the memory plan's total, said at start: ${(plan / MiB).toFixed(0)} MiB`,
        ratio: `plan ${ratio.toFixed(2)}× the peak`,
        target: 'plan within 20 % of the peak',
        met: Math.abs(ratio - 1) <= 0.2,
      },
      {
        bench: 'memory',
        measure:
          'the same peak against the plan less the bounds this catalogue cannot fill (feed tails past its 254 playlists, 5,000 channel titles, failing pages, renders without a page)',
        figure: `${(peak / MiB).toFixed(0)} MiB`,
        reference: `the plan at what this load could reach: ${((plan - unreached) / MiB).toFixed(0)} MiB`,
        ratio: `plan ${reachable.toFixed(2)}× the peak`,
        target: 'plan within 20 % of the peak',
        met: Math.abs(reachable - 1) <= 0.2,
      },
    ];
  } finally {
    clearInterval(sampler);
    await pool.close();
    await explorer.stop();
  }
}
