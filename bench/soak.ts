import { parseArgs } from 'node:util';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import {
  childMemoryArgs,
  readChildMemory,
  type ChildMemory,
} from '../src/test-support/memory-probe.ts';
import { catalogueStart } from './catalogue-paging.ts';
import { freePort, pinSelf, SERVER_CORE, startChild } from './processes.ts';
import { createTraffic, type Kind, type SoakRequest } from './soak-traffic.ts';
import { percentile } from './stats.ts';
import { SCRAPE_TOKEN, scrapeCache } from '../src/test-support/metrics-scrape.ts';

// `npm run soak`: minutes of mixed traffic against the explorer as users run it (`node
// src/server/index.ts`, after `npm run build`) in front of the embedded catalogue, run as its
// own process so that the explorer's memory is the explorer's alone. Cached pages, distinct
// pages that keep evicting the cache, playlists and channels, bad input and app pages, at a
// steady rate. Every few seconds it reads the explorer's memory after a full collection (the
// memory probe) and prints a line; at the end, the figures and a verdict. It fails on any
// answer nobody should get (any 5xx, a 429 with the limits lifted, an unexpected status or a
// network error) and on memory that keeps growing once the cache is full: a least-squares
// slope over the second half of the run above --max-slope, or an end above the middle by
// more than --max-growth; and on a cache that holds more than it is allowed: live memory at
// the end above the start by more than the cache's size and --max-over-cache.
//
//   npm run soak                       3 minutes
//   npm run soak -- --minutes 10
//   npm run soak -- --seconds 30       a short run
//   options: --rate 400 (requests/s) --every 10 (s between readings) --cache-mib 16
//            --max-slope 2 (MiB/min) --max-growth 12 (MiB) --max-over-cache 12 (MiB)

const { values: options } = parseArgs({
  options: {
    minutes: { type: 'string' },
    seconds: { type: 'string' },
    rate: { type: 'string', default: '400' },
    every: { type: 'string', default: '10' },
    'cache-mib': { type: 'string', default: '16' },
    'max-slope': { type: 'string', default: '2' },
    'max-growth': { type: 'string', default: '12' },
    'max-over-cache': { type: 'string', default: '12' },
    connections: { type: 'string', default: '16' },
  },
});

const durationS =
  options.seconds !== undefined ? Number(options.seconds) : Number(options.minutes ?? '3') * 60;
const rate = Number(options.rate);
const everyS = Number(options.every);
const cacheBytes = Number(options['cache-mib']) * 1024 * 1024;
const maxSlope = Number(options['max-slope']);
const maxGrowth = Number(options['max-growth']);
const maxOverCache = Number(options['max-over-cache']);
const connections = Number(options.connections);
for (const [name, value] of Object.entries({ durationS, rate, everyS, cacheBytes, connections }))
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);

const MiB = (bytes: number) => bytes / 1024 / 1024;
const f1 = (n: number) => n.toFixed(1);
const thousands = (n: number) => n.toLocaleString('en');

interface Reading {
  at: number;
  memory: ChildMemory;
  cache: { entries: number; bytes: number };
}

/** Least-squares slope of y over x. */
function slope(points: ReadonlyArray<[number, number]>): number {
  const n = points.length;
  if (n < 2) return 0;
  const mx = points.reduce((s, [x]) => s + x, 0) / n;
  const my = points.reduce((s, [, y]) => s + y, 0) / n;
  let num = 0;
  let den = 0;
  for (const [x, y] of points) {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

pinSelf();
const catalogue = await catalogueStart();
const port = await freePort();
const url = `http://127.0.0.1:${port}`;
const explorer = await startChild(
  SERVER_CORE,
  process.execPath,
  [...childMemoryArgs(), 'src/server/index.ts'],
  {
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    CATALOGUE_BASE_URL: catalogue.url,
    CATALOGUE_API_KEY: catalogue.headers['API-Key']!,
    CATALOGUE_API_SECRET: catalogue.headers['API-Secret']!,
    // One client sending far more than a person would: no guard may stand in the way.
    CATALOGUE_QUOTA: '100000000',
    CLIENT_RATE_LIMIT_BURST: '100000000',
    CLIENT_RATE_LIMIT_PER_SECOND: '100000000',
    RENDER_RATE_LIMIT_BURST: '100000000',
    RENDER_RATE_LIMIT_PER_SECOND: '100000000',
    CACHE_MAX_BYTES: String(cacheBytes),
    METRICS_TOKEN: SCRAPE_TOKEN,
  },
  `${url}/healthz`,
);

const pool = new Pool(url, { connections });
const traffic = createTraffic();
const latencies: number[] = [];
let windowLatencies: number[] = [];
const byKind = new Map<Kind, number>();
const statuses = new Map<number, number>();
const unexpected = new Map<string, number>();
let sent = 0;
let serverErrors = 0;
let networkErrors = 0;
let windowSent = 0;

async function send(request: SoakRequest): Promise<void> {
  const started = performance.now();
  let status: number;
  try {
    const answer = await pool.request({
      method: 'GET',
      path: request.path,
      headers: request.headers,
    });
    status = answer.statusCode;
    const etag = answer.headers.etag;
    if (typeof etag === 'string') request.onEtag?.(etag);
    if (
      request.onPage !== undefined &&
      status === 200 &&
      answer.headers['content-encoding'] === undefined
    )
      request.onPage(await answer.body.json());
    else await answer.body.arrayBuffer();
  } catch (error) {
    networkErrors++;
    const key = `network error (${(error as Error).message}) ${request.kind}`;
    unexpected.set(key, (unexpected.get(key) ?? 0) + 1);
    return;
  }
  const ms = performance.now() - started;
  latencies.push(ms);
  windowLatencies.push(ms);
  byKind.set(request.kind, (byKind.get(request.kind) ?? 0) + 1);
  statuses.set(status, (statuses.get(status) ?? 0) + 1);
  if (status >= 500) serverErrors++;
  if (!request.expected.includes(status)) {
    const key = `${status} for ${request.kind} ${request.path.replace(/\d{4,}/g, 'N')}`;
    unexpected.set(key, (unexpected.get(key) ?? 0) + 1);
  }
}

async function read(at: number): Promise<Reading> {
  const memory = await readChildMemory(explorer.process);
  return { at, memory, cache: await scrapeCache(url) };
}

function line(reading: Reading, label: string): string {
  const { memory, cache } = reading;
  const window = windowLatencies;
  const rps = windowSent / everyS;
  return (
    `${label.padEnd(7)} t=${String(Math.round(reading.at)).padStart(4)} s  ` +
    `live ${f1(MiB(memory.live)).padStart(6)} MiB  heap ${f1(MiB(memory.heapTotal)).padStart(6)} MiB  ` +
    `rss ${f1(MiB(memory.rss)).padStart(6)} MiB  cache ${f1(MiB(cache.bytes))} MiB/${thousands(cache.entries)}  ` +
    `requests ${thousands(sent).padStart(7)}  ${Math.round(rps)}/s  ` +
    (window.length === 0
      ? ''
      : `p50 ${f1(percentile(window, 50))} ms  p99 ${f1(percentile(window, 99))} ms  `) +
    `5xx ${serverErrors}`
  );
}

console.log(
  `soak: ${durationS} s at ${rate} requests/s over ${connections} connections, cache ${f1(MiB(cacheBytes))} MiB, ` +
    `memory read every ${everyS} s (live = heap + Buffers after a full collection)`,
);

const readings: Reading[] = [];
const started = performance.now();
const elapsedS = () => (performance.now() - started) / 1000;
readings.push(await read(0));
console.log(line(readings[0]!, 'start'));

// Requests go out at a steady rate, at most `connections` at a time: a crowd, not a flood.
let inFlight = 0;
const pending = new Set<Promise<void>>();
let nextReadingAt = everyS;
let reading: Promise<void> | null = null;
while (elapsedS() < durationS) {
  const due = Math.floor(elapsedS() * rate);
  while (sent < due && inFlight < connections) {
    inFlight++;
    sent++;
    windowSent++;
    const request = send(traffic.next()).finally(() => {
      inFlight--;
      pending.delete(request);
    });
    pending.add(request);
  }
  if (reading === null && elapsedS() >= nextReadingAt) {
    const at = nextReadingAt;
    nextReadingAt += everyS;
    reading = read(elapsedS()).then((r) => {
      readings.push(r);
      console.log(line(r, Math.abs(at - durationS / 2) < everyS / 2 ? 'middle' : ''));
      windowLatencies = [];
      windowSent = 0;
      reading = null;
    });
  }
  await sleep(inFlight < connections ? 2 : 1);
}
await Promise.all(pending);
if (reading !== null) await reading;
const end = await read(elapsedS());
readings.push(end);
console.log(line(end, 'end'));

await pool.close();
await explorer.stop();
await catalogue.stop();

// The verdict. Memory rises while the cache fills; the second half is where it must be flat.
const middleAt = durationS / 2;
const secondHalf = readings.filter((r) => r.at >= middleAt);
const middle = secondHalf[0] ?? end;
const slopePerMinute = slope(secondHalf.map((r) => [r.at / 60, MiB(r.memory.live)]));
const growth = MiB(end.memory.live - middle.memory.live);
const start = readings[0]!;
const overStart = MiB(end.memory.live - start.memory.live);
const failures: string[] = [];
if (serverErrors > 0) failures.push(`${serverErrors} answers with a 5xx status`);
if (unexpected.size > 0)
  failures.push(`${[...unexpected.values()].reduce((a, b) => a + b, 0)} unexpected answers`);
if (slopePerMinute > maxSlope)
  failures.push(
    `live memory grows by ${f1(slopePerMinute)} MiB/min over the second half (limit ${maxSlope})`,
  );
// Without its cache the explorer's live memory hardly moves under this traffic: what it gains
// is the cache, which may hold its size and no more.
if (overStart > MiB(cacheBytes) + maxOverCache)
  failures.push(
    `live memory ended ${f1(overStart)} MiB above the start, more than the cache's ${f1(MiB(cacheBytes))} MiB + ${maxOverCache}`,
  );
if (growth > maxGrowth)
  failures.push(`live memory ended ${f1(growth)} MiB above the middle (limit ${maxGrowth})`);

const count = (s: number) =>
  [...statuses].filter(([k]) => k >= s && k < s + 100).reduce((a, [, n]) => a + n, 0);
const crawl = traffic.stats();
console.log(
  [
    '',
    `duration ${f1(elapsedS())} s, ${thousands(sent)} requests (${Math.round(sent / elapsedS())}/s): ` +
      [...byKind].map(([kind, n]) => `${kind} ${thousands(n)}`).join(', '),
    `answers: 2xx ${thousands(count(200))}, 3xx ${thousands(count(300))}, 4xx ${thousands(count(400))} (intended), ` +
      `5xx ${serverErrors}, network errors ${networkErrors}, unexpected ${[...unexpected.values()].reduce((a, b) => a + b, 0)}`,
    `latency: p50 ${f1(percentile(latencies, 50))} ms, p99 ${f1(percentile(latencies, 99))} ms`,
    `distinct pages crawled ${thousands(crawl.crawled)} (${crawl.crawls} passes over the catalogue)`,
    `memory (live after GC): start ${f1(MiB(start.memory.live))} MiB, middle ${f1(MiB(middle.memory.live))} MiB, ` +
      `end ${f1(MiB(end.memory.live))} MiB (${f1(overStart)} MiB over the start, cache ${f1(MiB(cacheBytes))} MiB); ` +
      `second-half slope ${f1(slopePerMinute)} MiB/min`,
    `memory (resident): start ${f1(MiB(start.memory.rss))} MiB, middle ${f1(MiB(middle.memory.rss))} MiB, ` +
      `end ${f1(MiB(end.memory.rss))} MiB`,
  ].join('\n'),
);
for (const [what, n] of unexpected) console.log(`  unexpected: ${n} × ${what}`);
if (failures.length > 0) {
  console.log(`\nFAIL: ${failures.join('; ')}`);
  process.exit(1);
}
console.log('\nPASS: no unintended answer, memory flat once the cache is full');
