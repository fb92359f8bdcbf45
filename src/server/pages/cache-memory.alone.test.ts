import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  childMemoryArgs,
  readChildMemory,
  requireResidentBytes,
  type ChildMemory,
} from '../../test-support/memory-probe.ts';
import {
  pagesFrom,
  playlistItem,
  startTestUpstream,
  type TestUpstream,
} from '../../test-support/test-upstream.ts';
import { freePort } from '../../test-support/free-port.ts';
import { startFlags } from '../../test-support/start-flags.ts';
import { BUILT_SERVER, SERVER_ENV, staleBuild } from '../start.ts';
import { SCRAPE_TOKEN, scrapeCache } from '../../test-support/metrics-scrape.ts';

// The page cache bounds the process's memory, not only the pages' bytes: the built explorer,
// started as `npm start` starts it (its flags and environment), in front of an upstream over real
// HTTP, is sent 20,000 distinct pages, more than twice what the cache holds: small ones (a few
// hundred bytes, where the per-entry costs dwarf the page) and some over a kilobyte asked for
// compressed (each compressed copy came back as a view on a 64 KB block), with some pages asked
// for again (cached answers). Twice: with the cache off, and with a 16 MiB cache. What the cache
// adds is the difference between the two, read as live memory (heap and Buffers) after a full
// collection in each child, which the memory probe does on a signal; and the cached run's
// resident memory may grow only so far past its warm-up. The build must be current: an older
// one would measure an older server.

const CACHE_BYTES = 16 * 1024 * 1024;
/** What the cache may add beyond its setting: the Map's spare slots, heap rounding, noise. */
const ALLOWANCE_BYTES = 4 * 1024 * 1024;
const PAGES = 20_000;
const WARM_UP = 3_000;
const CONNECTIONS = 8;
/** Short, so that the deadline timer of every upstream call has fired before memory is read. */
const UPSTREAM_TIMEOUT_MS = 3_000;

const MiB = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;

let upstream: TestUpstream;
let workDir: string;

beforeAll(async () => {
  // Any playlist continuation is a page of its own: `s…` a small one (~340 bytes), `m…` one
  // of eight items (~2.5 KB), worth compressing.
  upstream = await startTestUpstream(
    pagesFrom((url) => {
      const continuation = url.searchParams.get('continuation') ?? '';
      const count = continuation.startsWith('m') ? 8 : 1;
      return {
        items: Array.from({ length: count }, (_, i) => playlistItem(i + 1)),
        continuation: null,
      };
    }),
  );
  workDir = mkdtempSync(join(tmpdir(), 'explorer-memory-'));
  writeFileSync(join(workDir, 'index.html'), '<!doctype html><div id="root"></div>');
});

afterAll(async () => {
  await upstream.close();
  rmSync(workDir, { recursive: true, force: true });
});

interface Explorer {
  child: ChildProcess;
  url: string;
  stop: () => Promise<void>;
}

/** The built server as `npm start` runs it, with a cache of `cacheBytes`. */
async function startExplorer(cacheBytes: number): Promise<Explorer> {
  const port = await freePort();
  const flags = startFlags();
  const child = spawn(process.execPath, [...flags, ...childMemoryArgs(), resolve(BUILT_SERVER)], {
    cwd: workDir,
    env: {
      PATH: process.env.PATH ?? '',
      STATIC_ROOT: workDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      CATALOGUE_BASE_URL: upstream.url,
      CATALOGUE_API_KEY: 'memory-test-key',
      CATALOGUE_API_SECRET: 'memory-test-secret',
      // One client sends far more than a person would: neither guard may stand in the way.
      CATALOGUE_QUOTA: '100000000',
      CLIENT_RATE_LIMIT_BURST: '100000000',
      CLIENT_RATE_LIMIT_PER_SECOND: '100000000',
      UPSTREAM_TIMEOUT_MS: String(UPSTREAM_TIMEOUT_MS),
      CACHE_MAX_BYTES: String(cacheBytes),
      METRICS_TOKEN: SCRAPE_TOKEN,
      // The memory tier alone: node:sqlite reports what the page store on disk holds as memory
      // outside the heap, which would count in the cached run's live memory and not the other's.
      DISK_CACHE_MAX_BYTES: '0',
      ...SERVER_ENV,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  const url = `http://127.0.0.1:${port}`;
  for (const started = Date.now(); ; await sleep(50)) {
    try {
      if ((await fetch(`${url}/healthz`)).ok) return { child, url, stop };
    } catch {
      // Not listening yet.
    }
    if (child.exitCode !== null || Date.now() - started > 30_000) {
      await stop();
      throw new Error('the explorer did not start');
    }
  }
}

/**
 * Request `n` of the traffic: two in three a small page, one in three a larger one asked
 * for compressed (gzip and br in turn), and every fifth request a page asked for a little
 * earlier, which the cache answers (8 MiB holds the last few thousand pages).
 */
function requestFor(n: number, prefix: string): { path: string; encoding: string | undefined } {
  const page = n % 5 === 4 ? Math.max(0, n - 500) : n;
  const large = page % 3 === 2;
  const continuation = `${large ? 'm' : 's'}${prefix}${page}`;
  return {
    path: `/api/v1/playlist?id=PLcachememorytest01&continuation=${continuation}`,
    encoding: large ? (page % 2 === 0 ? 'gzip' : 'br, gzip') : undefined,
  };
}

/** Sends `count` requests over a few keep-alive connections; every answer must be a 200. */
async function drive(url: string, prefix: string, count: number): Promise<void> {
  const pool = new Pool(url, { connections: CONNECTIONS });
  let next = 0;
  const failures: string[] = [];
  const worker = async () => {
    while (next < count) {
      const { path, encoding } = requestFor(next++, prefix);
      const answer = await pool.request({
        method: 'GET',
        path,
        headers: encoding === undefined ? {} : { 'accept-encoding': encoding },
      });
      await answer.body.arrayBuffer();
      if (answer.statusCode !== 200 && failures.length < 5)
        failures.push(`${answer.statusCode} ${path}`);
    }
  };
  try {
    await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  } finally {
    await pool.close();
  }
  expect(failures).toEqual([]);
}

interface Run {
  memory: ChildMemory;
  cache: { entries: number; bytes: number; maxBytes: number; evictions: number };
  /** Resident memory after warm-up, and its peak while the pages were sent. */
  resident: { warm: number; peak: number };
}

/** One explorer, the whole traffic, and its memory on the way and afterwards. */
async function run(cacheBytes: number): Promise<Run> {
  const explorer = await startExplorer(cacheBytes);
  try {
    const pid = explorer.child.pid!;
    // The code paths compiled and the pools filled before anything is compared.
    await drive(explorer.url, 'warm', WARM_UP);
    const warm = requireResidentBytes(pid);
    let peak = warm;
    const sampler = setInterval(() => (peak = Math.max(peak, requireResidentBytes(pid))), 20);
    try {
      await drive(explorer.url, 'page', PAGES);
    } finally {
      clearInterval(sampler);
    }
    // Every upstream call's deadline timer has fired: what is left is what is kept.
    await sleep(UPSTREAM_TIMEOUT_MS + 500);
    const memory = await readChildMemory(explorer.child);
    return { memory, cache: await scrapeCache(explorer.url), resident: { warm, peak } };
  } finally {
    await explorer.stop();
  }
}

describe('the page cache bounds the process, over real sockets', () => {
  beforeAll(() => {
    const stale = staleBuild();
    if (stale !== null)
      throw new Error(`this test runs the build, which is stale (${stale}): npm run build`);
  });

  it(`grows the explorer by about CACHE_MAX_BYTES (${MiB(CACHE_BYTES)}) for ${PAGES.toLocaleString('en')} distinct pages, and its resident memory by at most 48 MB past warm-up`, async () => {
    const off = await run(0);
    const on = await run(CACHE_BYTES);
    const added = on.memory.live - off.memory.live;
    const grown = on.resident.peak - on.resident.warm;
    console.log(
      [
        `cache ${MiB(CACHE_BYTES)}: ${on.cache.entries} entries counted as ${MiB(on.cache.bytes)}, ${on.cache.evictions} evicted`,
        `live after GC: ${MiB(on.memory.live)} with the cache, ${MiB(off.memory.live)} without: the cache adds ${MiB(added)}`,
        `resident with the cache: ${MiB(on.resident.warm)} after warm-up, peak ${MiB(on.resident.peak)} (+${MiB(grown)})`,
      ].join('\n'),
    );
    // The cache was filled, and emptied again and again, as the traffic meant it to be.
    expect(on.cache.bytes).toBeGreaterThan(CACHE_BYTES * 0.95);
    expect(on.cache.bytes).toBeLessThanOrEqual(CACHE_BYTES);
    expect(on.cache.evictions).toBeGreaterThan(PAGES / 4);
    expect(off.cache.entries).toBe(0);
    expect(added).toBeLessThanOrEqual(CACHE_BYTES + ALLOWANCE_BYTES);
    // Its heap limit (package.json's start flags) keeps V8 from growing the heap far ahead of
    // the live data, which resident memory otherwise follows.
    expect(grown).toBeLessThanOrEqual(48 * 1e6);
  }, 240_000);
});
