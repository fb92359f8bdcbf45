import { Pool } from 'undici';
import { FIXTURE_IDS } from '../src/catalogue/demo-fixtures.ts';
import { startTestRedis } from '../src/test-support/redis-server.ts';
import { catalogueStart, type BenchOptions } from './catalogue-paging.ts';
import { startExplorer, type Explorer } from './explorer.ts';
import { hasCommand } from './processes.ts';
import { formatSpread, percentile, spread } from './stats.ts';
import type { BenchRow } from './table.ts';

// Bench 13: replicas sharing state through Redis (a real redis-server, persistence off).
//
// - A cached page from the second level (Redis) against the first (memory). The first: a
//   replica answering a page it holds. The second: a replica whose own cache is off
//   (CACHE_MAX_BYTES=0), so that every request misses it and is answered from Redis, as a
//   replica's first request for a page another one fetched is. Sequential requests on one
//   keep-alive connection, interleaved in rounds; the target is on the p50 that Redis adds.
// - Cached-page throughput of three replicas against one: a closed loop of requests spread
//   round robin, from this process. With two cores, the replicas share the server core, so
//   the figure says what sharing costs a replica (nothing, for a page in its memory) rather
//   than how far replicas scale: that takes a core per replica.

const PAGE_PATH = `/api/v1/playlist?id=${FIXTURE_IDS.playlist100}`;

async function latencies(url: string, samples: number): Promise<number[]> {
  const pool = new Pool(url, { connections: 1 });
  const times: number[] = [];
  try {
    for (let i = 0; i < samples; i++) {
      const started = performance.now();
      const { statusCode, body } = await pool.request({
        method: 'GET',
        path: PAGE_PATH,
        headers: { 'accept-encoding': 'identity' },
      });
      await body.dump();
      if (statusCode !== 200) throw new Error(`answered ${statusCode}`);
      times.push(performance.now() - started);
    }
  } finally {
    await pool.close();
  }
  return times;
}

/** Requests per second from `concurrency` loops over the targets, for `seconds`. */
async function throughput(urls: string[], seconds: number, concurrency = 48): Promise<number> {
  const pools = urls.map(
    (url) => new Pool(url, { connections: Math.ceil(concurrency / urls.length) }),
  );
  let done = 0;
  let errors = 0;
  const until = performance.now() + seconds * 1000;
  try {
    await Promise.all(
      Array.from({ length: concurrency }, async (_, worker) => {
        const pool = pools[worker % pools.length] as Pool;
        while (performance.now() < until) {
          const { statusCode, body } = await pool.request({ method: 'GET', path: PAGE_PATH });
          await body.dump();
          if (statusCode === 200) done++;
          else errors++;
        }
      }),
    );
  } finally {
    await Promise.all(pools.map((p) => p.close()));
  }
  if (errors > 0) throw new Error(`${errors} requests failed`);
  return done / seconds;
}

export async function benchReplicas(options: BenchOptions): Promise<BenchRow[]> {
  if (!hasCommand('/usr/bin/redis-server'))
    return [
      {
        bench: '13',
        measure: 'replicas through Redis',
        figure: '–',
        reference: 'redis-server not installed (apt-get install redis-server)',
        ratio: '–',
        target: '–',
        met: null,
      },
    ];
  const redis = await startTestRedis();
  const catalogue = await catalogueStart();
  const shared = { REDIS_URL: redis.url, EXPLORER_REPLICAS: '3' };
  const explorers: Explorer[] = [];
  try {
    const started = await Promise.all([
      startExplorer(catalogue, shared),
      startExplorer(catalogue, shared),
      startExplorer(catalogue, shared),
      startExplorer(catalogue, { ...shared, CACHE_MAX_BYTES: '0' }),
    ]);
    explorers.push(...started);
    const [a, b, c, secondOnly] = started as [Explorer, Explorer, Explorer, Explorer];
    // Through A: upstream once, then in Redis; B and C take it from there into their memory.
    for (const replica of [a, b, c, secondOnly]) await latencies(replica.url, 200);

    const first: number[][] = [];
    const second: number[][] = [];
    for (let round = 0; round < options.rounds; round++) {
      first.push(await latencies(a.url, options.samples * 20));
      second.push(await latencies(secondOnly.url, options.samples * 20));
    }
    const p = (runs: number[][], q: number) => spread(runs.map((r) => percentile(r, q)));
    const added = spread(first.map((r, i) => percentile(second[i]!, 50) - percentile(r, 50)));
    const one: number[] = [];
    const three: number[] = [];
    for (let round = 0; round < options.rounds; round++) {
      one.push(await throughput([a.url], options.seconds));
      three.push(await throughput([a.url, b.url, c.url], options.seconds));
    }
    const ratio = spread(three.map((t, i) => t / one[i]!));
    return [
      {
        bench: '13',
        measure: 'cached page from the second level (Redis) vs the first (memory): p50 / p99',
        figure: `${p(second, 50).median.toFixed(2)} / ${p(second, 99).median.toFixed(2)} ms`,
        reference: `memory ${p(first, 50).median.toFixed(2)} / ${p(first, 99).median.toFixed(2)} ms`,
        ratio: `+${formatSpread(added, 2, ' ms')} p50`,
        target: 'added p50 ≤ 0.5 ms',
        met: added.median <= 0.5,
      },
      {
        bench: '13',
        measure: 'cached page throughput: three replicas vs one (req/s)',
        figure: formatSpread(spread(three)),
        reference: `one replica ${formatSpread(spread(one))}`,
        ratio: formatSpread(ratio, 2, '×'),
        target: '–',
        met: null,
      },
    ];
  } finally {
    await Promise.all(explorers.map((e) => e.stop()));
    await catalogue.stop();
    await redis.stop();
  }
}
