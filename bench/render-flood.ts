import { readFileSync } from 'node:fs';
import { Pool } from 'undici';
import { FIXTURE_IDS } from '../src/catalogue/demo-fixtures.ts';
import { familyTotal, SCRAPE_TOKEN, scrapeSamples } from '../src/test-support/metrics-scrape.ts';
import { startExplorer, type Explorer } from './explorer.ts';
import { formatSpread, median, spread } from './stats.ts';
import type { BenchRow } from './table.ts';

// Bench 14: one client flooding the server's renders while another reads views it has cached.
// The flooder asks for the 5,000-video playlist's view 1,000 times, 16 at a time, each URL with
// an unknown parameter of its own (`?utm_source=N`, as links shared around the web carry); the
// reader asks, one at a time, for four views already rendered. The reader's p50 during the flood
// is held against its p50 alone a moment before (same process, same views), and the renders the
// flood caused are read from the explorer's metrics (the render histogram's count). Every round
// starts a fresh explorer, so the flooded view is cold each time. The two clients are told apart
// by X-Forwarded-For (TRUST_PROXY, loopback only), and the render allowance is the default one.

export interface RenderFloodOptions {
  rounds: number;
  /** Requests of the flood. */
  flood: number;
  /** Requests the reader makes alone, for its quiet p50. */
  quiet: number;
}

const FLOODED = `/playlist/${FIXTURE_IDS.playlist5000}`;
const READ = [
  `/playlist/${FIXTURE_IDS.playlist100}`,
  `/playlist/${FIXTURE_IDS.playlist101}`,
  `/channel/${FIXTURE_IDS.smallChannel}`,
  `/channel/${FIXTURE_IDS.bigChannel}/playlists`,
];
const FLOODER = '198.51.100.1';
const READER = '198.51.100.2';
const CONCURRENCY = 16;
/** As a browser asks for a page. */
const BROWSER = { accept: 'text/html', 'accept-encoding': 'br, gzip' };

async function get(pool: Pool, path: string, client: string): Promise<number> {
  const { statusCode, body } = await pool.request({
    method: 'GET',
    path,
    headers: { ...BROWSER, 'x-forwarded-for': client },
  });
  await body.dump();
  return statusCode;
}

/** Latencies of sequential reads of the cached views until `until()` says stop. */
async function read(pool: Pool, until: (n: number) => boolean): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; !until(i); i++) {
    const started = performance.now();
    const status = await get(pool, READ[i % READ.length]!, READER);
    if (status !== 200) throw new Error(`a cached view answered ${status}`);
    times.push(performance.now() - started);
  }
  return times;
}

/** CPU seconds (user + system) the process has used, from /proc; NaN where there is none. */
function cpuSeconds(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime are fields 14 and 15 of stat, in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

type Samples = ReadonlyMap<string, number>;
const scrape = (explorer: Explorer) => scrapeSamples(explorer.url);

/** The render histogram's count: renders so far. */
const rendersIn = (samples: Samples) =>
  familyTotal(samples, 'explorer_render_duration_seconds_count');

/**
 * Where the explorer's time went between two scrapes: its event loop's delay (prom-client
 * measures it with `monitorEventLoopDelay` and starts afresh at every scrape) and the time its
 * garbage collector took.
 */
interface LoopWindow {
  lagP99Ms: number;
  lagMaxMs: number;
  gcMs: number;
}

function loopWindow(before: Samples, after: Samples): LoopWindow {
  return {
    lagP99Ms: familyTotal(after, 'explorer_nodejs_eventloop_lag_p99_seconds') * 1000,
    lagMaxMs: familyTotal(after, 'explorer_nodejs_eventloop_lag_max_seconds') * 1000,
    gcMs:
      (familyTotal(after, 'explorer_nodejs_gc_duration_seconds_sum') -
        familyTotal(before, 'explorer_nodejs_gc_duration_seconds_sum')) *
      1000,
  };
}

interface Round {
  quietP50: number;
  floodP50: number;
  renders: number;
  statuses: Map<number, number>;
  floodSeconds: number;
  cpu: number;
  quietLoop: LoopWindow;
  floodLoop: LoopWindow;
}

async function round(options: RenderFloodOptions): Promise<Round> {
  const explorer = await startExplorer(undefined, {
    TRUST_PROXY: 'true',
    METRICS_TOKEN: SCRAPE_TOKEN,
  });
  const reader = new Pool(explorer.url, { connections: 1 });
  const flooder = new Pool(explorer.url, { connections: CONCURRENCY });
  try {
    // The reader's views rendered and cached, the flooded list's first page cached (through the
    // API, so that the flood measures renders, not the catalogue), and both paths warm.
    for (const path of READ) await get(reader, path, READER);
    await get(reader, `/api/v1/playlist?id=${FIXTURE_IDS.playlist5000}`, '198.51.100.3');
    const beforeQuiet = await scrape(explorer);
    const quiet = await read(reader, (n) => n >= options.quiet);

    const before = await scrape(explorer);
    const cpuBefore = cpuSeconds(explorer.child.process.pid);
    const statuses = new Map<number, number>();
    let next = 0;
    let flooding = true;
    const started = performance.now();
    const flood = Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < options.flood) {
          const n = next++;
          const status = await get(flooder, `${FLOODED}?utm_source=${n}`, FLOODER);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        }
      }),
    ).finally(() => (flooding = false));
    const during = await read(reader, () => !flooding);
    await flood;
    const floodSeconds = (performance.now() - started) / 1000;
    const cpu = cpuSeconds(explorer.child.process.pid) - cpuBefore;
    const after = await scrape(explorer);
    return {
      renders: rendersIn(after) - rendersIn(before),
      quietLoop: loopWindow(beforeQuiet, before),
      floodLoop: loopWindow(before, after),
      quietP50: median(quiet),
      floodP50: median(during),
      statuses,
      floodSeconds,
      cpu,
    };
  } finally {
    await Promise.all([reader.close(), flooder.close()]);
    await explorer.stop();
  }
}

export async function benchRenderFlood(options: RenderFloodOptions): Promise<BenchRow[]> {
  const rounds: Round[] = [];
  for (let r = 0; r < options.rounds; r++) rounds.push(await round(options));
  const quiet = spread(rounds.map((r) => r.quietP50));
  const flood = spread(rounds.map((r) => r.floodP50));
  const ratios = spread(rounds.map((r) => r.floodP50 / r.quietP50));
  const renders = spread(rounds.map((r) => r.renders));
  const cpu = spread(rounds.map((r) => r.cpu));
  const seconds = spread(rounds.map((r) => r.floodSeconds));
  const loop = (window: (r: Round) => LoopWindow) => {
    const p99 = spread(rounds.map((r) => window(r).lagP99Ms));
    const max = spread(rounds.map((r) => window(r).lagMaxMs));
    const gc = spread(rounds.map((r) => window(r).gcMs));
    return {
      p99,
      text: `loop delay p99 ${formatSpread(p99, 1, ' ms')}, max ${formatSpread(max, 1, ' ms')}; GC ${formatSpread(gc, 1, ' ms')}`,
    };
  };
  const floodLoop = loop((r) => r.floodLoop);
  const quietLoop = loop((r) => r.quietLoop);
  const statuses = new Map<number, number>();
  for (const r of rounds)
    for (const [status, count] of r.statuses)
      statuses.set(status, (statuses.get(status) ?? 0) + count);
  const answered = [...statuses]
    .sort(([a], [b]) => a - b)
    .map(([status, count]) => `${count} × ${status}`)
    .join(', ');
  const flooded = `${options.flood.toLocaleString('en')} playlist views with distinct unknown parameters, ${CONCURRENCY} at a time`;
  return [
    {
      bench: '14',
      measure: `render flood (${flooded}): another client's cached views, p50 (${options.rounds} rounds)`,
      figure: formatSpread(flood, 2, ' ms'),
      reference: `the same reads alone ${formatSpread(quiet, 2, ' ms')}`,
      ratio: `${ratios.median.toFixed(2)}× (${ratios.min.toFixed(2)}–${ratios.max.toFixed(2)})`,
      target: '≤ 2×',
      met: ratios.median <= 2,
    },
    {
      bench: '14',
      measure: `render flood: renders of the flooded view (answers: ${answered}; flood took ${formatSpread(seconds, 2, ' s')})`,
      figure: formatSpread(renders),
      reference: `explorer CPU during the flood ${formatSpread(cpu, 2, ' s')}`,
      ratio: '–',
      target: '≤ 1 render',
      met: renders.max <= 1,
    },
    {
      bench: '14',
      measure: `render flood: where the explorer's time went, during the flood (${options.flood.toLocaleString('en')} requests) and during the reads alone (${options.quiet.toLocaleString('en')})`,
      figure: floodLoop.text,
      reference: `the reads alone: ${quietLoop.text}`,
      ratio: `${(floodLoop.p99.median / quietLoop.p99.median).toFixed(2)}× loop delay p99`,
      target: '–',
      met: null,
    },
  ];
}
