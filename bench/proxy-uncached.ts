import { Pool } from 'undici';
import { FIXTURE_IDS } from '../src/catalogue/demo-fixtures.ts';
import { catalogueStart, type BenchOptions } from './catalogue-paging.ts';
import { startExplorer } from './explorer.ts';
import { runWrk } from './processes.ts';
import { formatSpread, percentile, spread } from './stats.ts';
import type { BenchRow } from './table.ts';

// Bench 2: what the explorer adds to an uncached page. The same pages are fetched from the
// catalogue directly and through the explorer (cold each time), alternating which goes first; the
// difference per page is the explorer's cost: validation, the pool, the schema check, the cache
// write and its own HTTP hop.

async function timed(pool: Pool, path: string, headers: Record<string, string>) {
  const started = process.hrtime.bigint();
  const { statusCode, body } = await pool.request({ method: 'GET', path, headers });
  const json = (await body.json()) as { continuation: string | null };
  if (statusCode !== 200) throw new Error(`${path} answered ${statusCode}`);
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, continuation: json.continuation };
}

export async function benchProxyUncached(
  options: BenchOptions & { pages: number },
): Promise<BenchRow[]> {
  const catalogue = await catalogueStart();
  const direct = new Pool(catalogue.url, { connections: 1 });
  const rows: BenchRow[] = [];
  try {
    const addedP50: number[] = [];
    const addedP99: number[] = [];
    const directP50: number[] = [];
    for (let round = 0; round < options.rounds; round++) {
      // A fresh explorer per round: every page below is a cache miss.
      const explorer = await startExplorer(catalogue);
      const viaExplorer = new Pool(explorer.url, { connections: 1 });
      try {
        const differences: number[] = [];
        const directTimes: number[] = [];
        let continuation: string | null = null;
        for (let page = 0; page < options.pages; page++) {
          const query = new URLSearchParams({ id: FIXTURE_IDS.bigChannel });
          if (continuation) query.set('continuation', continuation);
          const path = `/api/v1/channel-videos?${query}`;
          const proxyFirst = page % 2 === 1;
          const p1 = proxyFirst ? await timed(viaExplorer, path, {}) : null;
          const d = await timed(direct, path, catalogue.headers);
          const p = p1 ?? (await timed(viaExplorer, path, {}));
          differences.push(p.ms - d.ms);
          directTimes.push(d.ms);
          continuation = d.continuation;
          if (!continuation) break;
        }
        addedP50.push(percentile(differences, 50));
        addedP99.push(percentile(differences, 99));
        directP50.push(percentile(directTimes, 50));
      } finally {
        await viaExplorer.close();
        await explorer.stop();
      }
    }
    const p50 = spread(addedP50);
    const d50 = spread(directP50);
    rows.push({
      bench: '2',
      measure: `proxy, uncached page: added latency p50 / p99 (${options.pages} pages × ${options.rounds} rounds)`,
      figure: `+${formatSpread(p50, 2, ' ms')} / +${formatSpread(spread(addedP99), 2, ' ms')}`,
      reference: `upstream direct p50 ${formatSpread(d50, 2, ' ms')}`,
      ratio: `${((p50.median + d50.median) / d50.median).toFixed(2)}× direct`,
      target: 'p50 ≤ 1 ms added',
      met: p50.median <= 1,
    });

    // Uncached throughput: the explorer with its cache off, against the catalogue direct.
    // Both tiers off (memory and disk): every request is a miss.
    const explorer = await startExplorer(catalogue, {
      CACHE_MAX_BYTES: '0',
      DISK_CACHE_MAX_BYTES: '0',
    });
    try {
      const path = `/api/v1/playlist?id=${FIXTURE_IDS.playlist100}`;
      const through = runWrk(`${explorer.url}${path}`, options.seconds, 16);
      const straight = runWrk(
        `${catalogue.url}${path}`,
        options.seconds,
        16,
        Object.entries(catalogue.headers).map(([k, v]) => `${k}: ${v}`),
      );
      rows.push({
        bench: '2',
        measure: `proxy, uncached page: requests/s (cache off)${through.errors ? ` (${through.errors} errors!)` : ''}`,
        figure: `${Math.round(through.requestsPerSecond).toLocaleString('en')}; p50 ${through.p50Ms.toFixed(2)} ms`,
        reference: `upstream direct ${Math.round(straight.requestsPerSecond).toLocaleString('en')}; p50 ${straight.p50Ms.toFixed(2)} ms`,
        ratio: `${(through.requestsPerSecond / straight.requestsPerSecond).toFixed(2)}×`,
        target: '–',
        met: null,
      });
    } finally {
      await explorer.stop();
    }
    return rows;
  } finally {
    await direct.close();
    await catalogue.stop();
  }
}
