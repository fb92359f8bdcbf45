import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { FIXTURE_IDS } from '../src/catalogue/demo-fixtures.ts';
import { endpoints, type EndpointName } from '../src/shared/endpoints.ts';
import { exportPath, summaryPath } from '../src/shared/whole-list.ts';
import { catalogueStart } from './catalogue-paging.ts';
import { startExplorer } from './explorer.ts';
import { CLIENT_CORE, onCore, SERVER_CORE } from './processes.ts';
import { labelled, profileEnv, type LatencyProfile } from './latency-profiles.ts';
import { formatSpread, median, spread } from './stats.ts';
import type { BenchRow } from './table.ts';

// Benches 10 and 11: walking whole lists on the server. The reference is the raw continuation
// chain against the upstream itself (a client following `continuation` as fast as it can, one
// page at a time, parsing each page), measured in the same round; the explorer under test is
// fresh each round, so every page of its walk is a cache miss.
//
// 10: a cold summary of the 5,000-video playlist (a walk of 50 pages) vs the raw chain.
// 11: a cold CSV export of the 10,000-video channel (334 pages, streamed to the client) vs the
//     raw chain, as the bench's explorer runs it (limits lifted) and as a user of the default
//     configuration gets it (the walk pays for its lookups up front, so the per-second allowance
//     does not pace it), and the explorer's peak resident memory above where it stood before
//     the export, sampled every 5 ms from /proc.
//
// The walk is measured under each latency profile (latency-profiles.ts), the upstream answering
// the raw chain and the walk alike; the export (334 pages, a minute at the remote-like profile)
// under the local one, where its figure is the explorer's own work.
//
// Who runs where: the chain's follower (the explorer, or the raw client) has the server core to
// itself and the upstream runs on the other, as it runs on another machine in production. On
// one core with the explorer, the upstream's work on the next page and the explorer's on this
// one took turns (and each socket write woke the other), which no deployment meets; the raw
// client never shared its core, so the ratio measured the pinning more than the explorer.

/** Milliseconds for a client to follow a list's whole chain straight from the upstream. */
async function rawChain(
  upstream: { url: string; headers: Record<string, string> },
  endpoint: EndpointName,
  id: string,
): Promise<number> {
  const pool = new Pool(upstream.url, { connections: 1 });
  try {
    const started = performance.now();
    let continuation: string | null = null;
    do {
      const query = new URLSearchParams({ id });
      if (continuation) query.set('continuation', continuation);
      const { statusCode, body } = await pool.request({
        method: 'GET',
        path: `${endpoints[endpoint].path}?${query}`,
        headers: upstream.headers,
      });
      if (statusCode !== 200) throw new Error(`raw chain: ${statusCode}`);
      continuation = ((await body.json()) as { continuation: string | null }).continuation;
    } while (continuation);
    return performance.now() - started;
  } finally {
    await pool.close();
  }
}

async function timedGet(url: string): Promise<{ ms: number; bytes: number }> {
  const started = performance.now();
  const response = await fetch(url);
  if (response.status !== 200) throw new Error(`${url}: ${response.status}`);
  const bytes = (await response.arrayBuffer()).byteLength;
  return { ms: performance.now() - started, bytes };
}

const residentBytes = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
};

/** Runs `work` while sampling `pid`'s resident memory; the peak above the level before. */
async function peakGrowth<T>(
  pid: number,
  work: () => Promise<T>,
): Promise<{ value: T; bytes: number }> {
  const before = residentBytes(pid);
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, residentBytes(pid))), 5);
  try {
    const value = await work();
    peak = Math.max(peak, residentBytes(pid));
    return { value, bytes: peak - before };
  } finally {
    clearInterval(timer);
  }
}

interface WalkFigures {
  walk: number[];
  walkRaw: number[];
  exportMs: number[];
  exportRaw: number[];
  exportBytes: number;
}

/**
 * `pairs` walks, each beside its raw chain, alternating which goes first; with `exportEvery`,
 * an export beside its raw chain every that many pairs.
 */
async function measureWalks(
  catalogue: { url: string; headers: Record<string, string> },
  pairs: number,
  exportEvery: number | null,
): Promise<WalkFigures> {
  const figures: WalkFigures = {
    walk: [],
    walkRaw: [],
    exportMs: [],
    exportRaw: [],
    exportBytes: 0,
  };
  const walkUrl = (url: string) => `${url}${summaryPath('playlist', FIXTURE_IDS.playlist5000)}`;
  const exportUrl = (url: string) =>
    `${url}${exportPath('channel-videos', FIXTURE_IDS.bigChannel, 'csv')}`;
  const raw = (endpoint: EndpointName, id: string) =>
    onCore(SERVER_CORE, () => rawChain(catalogue, endpoint, id));
  // An explorer whose code is warm but whose caches are off (memory and disk), so that every
  // page of every walk is a miss, asked of the upstream: a cold walk, without a cold process.
  const warm = await startExplorer(catalogue, { CACHE_MAX_BYTES: '0', DISK_CACHE_MAX_BYTES: '0' });
  try {
    await timedGet(walkUrl(warm.url));
    if (exportEvery !== null) await timedGet(exportUrl(warm.url));
    for (let pair = 0; pair < pairs; pair++) {
      const rawFirst = pair % 2 === 0;
      if (rawFirst) figures.walkRaw.push(await raw('playlist', FIXTURE_IDS.playlist5000));
      figures.walk.push((await timedGet(walkUrl(warm.url))).ms);
      if (!rawFirst) figures.walkRaw.push(await raw('playlist', FIXTURE_IDS.playlist5000));
      if (exportEvery === null || pair % exportEvery !== 0) continue;
      const exportFirst = pair % (2 * exportEvery) === 0;
      if (exportFirst) figures.exportRaw.push(await raw('channel-videos', FIXTURE_IDS.bigChannel));
      const exported = await timedGet(exportUrl(warm.url));
      figures.exportMs.push(exported.ms);
      figures.exportBytes = exported.bytes;
      if (!exportFirst) figures.exportRaw.push(await raw('channel-videos', FIXTURE_IDS.bigChannel));
    }
  } finally {
    await warm.stop();
  }
  return figures;
}

/** The limits a user of the default configuration meets (startExplorer lifts them). */
const DEFAULT_LIMITS = {
  CATALOGUE_QUOTA: '10000',
  CLIENT_RATE_LIMIT_BURST: '60',
  CLIENT_RATE_LIMIT_PER_SECOND: '2',
  CLIENT_SHARE_OF_WINDOW: '0.1',
};

/**
 * The channel's export as a user of the default configuration gets it: a fresh explorer each
 * round (its hour and the client's share unspent), beside the raw chain, alternating.
 */
async function measureDefaultExport(
  catalogue: { url: string; headers: Record<string, string> },
  rounds: number,
): Promise<{ exportMs: number[]; raw: number[] }> {
  const exportMs: number[] = [];
  const raw: number[] = [];
  const path = exportPath('channel-videos', FIXTURE_IDS.bigChannel, 'csv');
  for (let round = 0; round < rounds; round++) {
    const rawFirst = round % 2 === 0;
    const chain = () =>
      onCore(SERVER_CORE, () => rawChain(catalogue, 'channel-videos', FIXTURE_IDS.bigChannel));
    if (rawFirst) raw.push(await chain());
    const explorer = await startExplorer(catalogue, DEFAULT_LIMITS);
    try {
      // Its code compiled first, as for the other rows: another list's export (50 lookups).
      await timedGet(`${explorer.url}${exportPath('playlist', FIXTURE_IDS.playlist5000, 'csv')}`);
      exportMs.push((await timedGet(`${explorer.url}${path}`)).ms);
    } finally {
      await explorer.stop();
    }
    if (!rawFirst) raw.push(await chain());
  }
  return { exportMs, raw };
}

/** The explorer's peak memory growth exporting the channel cold, in MB, once per round. */
async function measureExportMemory(
  catalogue: { url: string; headers: Record<string, string> },
  rounds: number,
): Promise<number[]> {
  const growth: number[] = [];
  // Memory: an explorer as users run it (the page cache on), that has already exported
  // another list (its code compiled, its heap at a working size), exporting the channel cold.
  for (let round = 0; round < rounds; round++) {
    const fresh = await startExplorer(catalogue);
    try {
      await timedGet(`${fresh.url}${exportPath('playlist', FIXTURE_IDS.playlist5000, 'csv')}`);
      const pid = fresh.child.process.pid!;
      const exported = await peakGrowth(pid, () =>
        timedGet(`${fresh.url}${exportPath('channel-videos', FIXTURE_IDS.bigChannel, 'csv')}`),
      );
      growth.push(exported.bytes / 2 ** 20);
    } finally {
      await fresh.stop();
    }
  }
  return growth;
}

export async function benchWholeListWalks(options: {
  rounds: number;
  profiles: readonly LatencyProfile[];
  /** Walks (each beside its raw chain) under a profile. */
  pairsFor: (profile: LatencyProfile) => number;
}): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const profile of options.profiles) {
    const local = profile.faults === '';
    const catalogue = await catalogueStart(profileEnv(profile), CLIENT_CORE);
    let figures: WalkFigures;
    let exportGrowth: number[] = [];
    let defaults: { exportMs: number[]; raw: number[] } = { exportMs: [], raw: [] };
    try {
      // Locally a walk takes about a tenth of a second: many pairs, each judged against its
      // own reference (the ratio is the median of the pairs' ratios: two runs a moment apart
      // meet the same machine).
      figures = await measureWalks(catalogue, options.pairsFor(profile), local ? 8 : null);
      if (local) exportGrowth = await measureExportMemory(catalogue, options.rounds);
      if (local) defaults = await measureDefaultExport(catalogue, options.rounds);
    } finally {
      await catalogue.stop();
    }
    const { walk, walkRaw } = figures;
    const walkRatio = median(walk.map((ms, i) => ms / (walkRaw[i] as number)));
    rows.push({
      bench: '10',
      measure: labelled(
        `cold walk of the 5,000-video playlist through the explorer (a summary: 50 pages, each a miss; ${walk.length} walks)`,
        { profile },
      ),
      figure: formatSpread(spread(walk), 0, ' ms'),
      reference: `raw continuation chain against the upstream ${formatSpread(spread(walkRaw), 0, ' ms')}`,
      ratio: `${walkRatio.toFixed(2)}× (median of pairs)`,
      target: '≤ 1.1×',
      met: walkRatio <= 1.1,
    });
    if (!local) continue;
    const e = spread(figures.exportMs);
    const er = spread(figures.exportRaw);
    const g = spread(exportGrowth);
    const megabytes = figures.exportBytes / 2 ** 20;
    const defaultRatio = median(defaults.exportMs.map((ms, i) => ms / (defaults.raw[i] as number)));
    rows.push(
      {
        bench: '11',
        measure: labelled(
          `cold CSV export of the 10,000-video channel (334 pages, ${megabytes.toFixed(1)} MB): time`,
          { profile },
        ),
        figure: formatSpread(e, 0, ' ms'),
        reference: `raw continuation chain against the upstream ${formatSpread(er, 0, ' ms')}`,
        ratio: `${(e.median / er.median).toFixed(2)}×`,
        target: '–',
        met: null,
      },
      {
        bench: '11',
        measure:
          'the same export in the default configuration (quota 10,000 an hour, allowance 60 + 2/s, a tenth of the hour per client): time',
        figure: formatSpread(spread(defaults.exportMs), 0, ' ms'),
        reference: `raw continuation chain ${formatSpread(spread(defaults.raw), 0, ' ms')}`,
        ratio: `${defaultRatio.toFixed(2)}× (median of pairs)`,
        target: '≤ 3×',
        met: defaultRatio <= 3,
      },
      {
        bench: '11',
        measure:
          'the same export, cold, by an explorer that has exported another list (cache on): peak resident memory growth',
        figure: formatSpread(g, 1, ' MB'),
        reference: `the export itself: ${megabytes.toFixed(1)} MB`,
        ratio: `${(g.median / megabytes).toFixed(2)}× the export`,
        target: '≤ 20 MB',
        met: g.median <= 20,
      },
    );
  }
  // Bench 10's rows first, then 11's, whatever order the profiles ran in.
  return [...rows.filter((r) => r.bench === '10'), ...rows.filter((r) => r.bench === '11')];
}
