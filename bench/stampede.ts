import { Pool } from 'undici';
import { FIXTURE_IDS } from '../src/catalogue/demo-fixtures.ts';
import { catalogueStart, type BenchOptions } from './catalogue-paging.ts';
import { startCountingProxy } from '../src/test-support/test-upstream.ts';
import { startExplorer } from './explorer.ts';
import { formatSpread, spread } from './stats.ts';
import type { BenchRow } from './table.ts';

// N simultaneous identical cold requests should cost one upstream call: the explorer merges
// identical requests in flight. Each round asks for a page nobody asked for before, through a
// counter in front of the catalogue.

export async function benchStampede(
  options: BenchOptions & { concurrency: number },
): Promise<BenchRow[]> {
  const catalogue = await catalogueStart();
  const counter = await startCountingProxy(catalogue.url);
  const explorer = await startExplorer({ url: counter.url, headers: catalogue.headers });
  const pool = new Pool(explorer.url, { connections: options.concurrency, pipelining: 1 });
  try {
    // Cold pages: the first page of each of the big channel's playlists, one per round.
    const listing = (await (
      await fetch(`${catalogue.url}/api/v1/channel-playlists?id=${FIXTURE_IDS.bigChannel}`, {
        headers: catalogue.headers,
      })
    ).json()) as { items: Array<{ id: string }> };
    const calls: number[] = [];
    const statuses = new Set<number>();
    for (let round = 0; round < options.rounds; round++) {
      const id = listing.items[round % listing.items.length]!.id;
      const before = counter.hits();
      const answers = await Promise.all(
        Array.from({ length: options.concurrency }, async () => {
          const { statusCode, body } = await pool.request({
            method: 'GET',
            path: `/api/v1/playlist?id=${id}`,
          });
          await body.arrayBuffer();
          return statusCode;
        }),
      );
      answers.forEach((s) => statuses.add(s));
      calls.push(counter.hits() - before);
    }
    const s = spread(calls);
    const ok = statuses.size === 1 && statuses.has(200);
    return [
      {
        bench: '3',
        measure: `stampede: ${options.concurrency} identical cold requests → upstream calls${ok ? '' : ` (statuses ${[...statuses].join(',')})`}`,
        figure: formatSpread(s),
        reference: `${options.concurrency} without merging`,
        ratio: `${(s.median / options.concurrency).toFixed(3)}×`,
        target: '1 call',
        met: ok && s.max === 1,
      },
    ];
  } finally {
    await pool.close();
    await explorer.stop();
    await counter.close();
    await catalogue.stop();
  }
}
