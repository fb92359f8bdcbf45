import { randomBytes } from 'node:crypto';
import { Pool, type Dispatcher } from 'undici';
import { FIXTURE_IDS } from '../src/catalogue/demo-fixtures.ts';
import { endpoints, type EndpointName } from '../src/shared/endpoints.ts';
import { freePort, SERVER_CORE, startChild } from './processes.ts';
import { formatSpread, median, spread } from './stats.ts';
import type { BenchRow } from './table.ts';

// Bench 4: keyset paging means a deep page costs what the first does. Page 1 and a deep page are
// timed alternately in the same run, so the ratio cancels the machine's noise.

export interface BenchOptions {
  rounds: number;
  /** Requests per page per round. */
  samples: number;
  seconds: number;
}

export async function catalogueStart(
  env: Record<string, string> = {},
  core = SERVER_CORE,
): Promise<{
  url: string;
  headers: Record<string, string>;
  stop: () => Promise<void>;
}> {
  const port = await freePort();
  const apiKey = randomBytes(12).toString('hex');
  const apiSecret = randomBytes(24).toString('hex');
  const url = `http://127.0.0.1:${port}`;
  const child = await startChild(
    core,
    process.execPath,
    ['src/catalogue/index.ts'],
    {
      CATALOGUE_PORT: String(port),
      CATALOGUE_API_KEY: apiKey,
      CATALOGUE_API_SECRET: apiSecret,
      ...env,
    },
    `${url}/api/v1/playlist`,
  );
  return { url, headers: { 'API-Key': apiKey, 'API-Secret': apiSecret }, stop: child.stop };
}

function pathFor(endpoint: EndpointName, id: string, continuation?: string | null): string {
  const query = new URLSearchParams({ id });
  if (continuation) query.set('continuation', continuation);
  return `${endpoints[endpoint].path}?${query}`;
}

/** The continuation that asks for page `n` (or the last page when n is Infinity). */
async function continuationFor(
  pool: Pool,
  headers: Record<string, string>,
  endpoint: EndpointName,
  id: string,
  n: number,
) {
  let continuation: string | null = null;
  for (let page = 1; page < n; page++) {
    const response: Dispatcher.ResponseData = await pool.request({
      method: 'GET',
      path: pathFor(endpoint, id, continuation),
      headers,
    });
    const next: string | null = ((await response.body.json()) as { continuation: string | null })
      .continuation;
    if (next === null) break;
    continuation = next;
  }
  return continuation;
}

async function time(pool: Pool, headers: Record<string, string>, path: string): Promise<number> {
  const started = process.hrtime.bigint();
  const { statusCode, body } = await pool.request({ method: 'GET', path, headers });
  await body.arrayBuffer();
  if (statusCode !== 200) throw new Error(`${path} answered ${statusCode}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

export async function benchCataloguePaging(options: BenchOptions): Promise<BenchRow[]> {
  const catalogue = await catalogueStart();
  const pool = new Pool(catalogue.url, { connections: 1 });
  try {
    const cases: Array<{
      measure: string;
      endpoint: EndpointName;
      id: string;
      deep: number;
      label: string;
    }> = [
      {
        measure: 'catalogue: playlist page 50 vs page 1 (p50 latency)',
        endpoint: 'playlist',
        id: FIXTURE_IDS.playlist5000,
        deep: 50,
        label: 'page 50',
      },
      {
        measure: 'catalogue: channel last page vs page 1 (p50 latency)',
        endpoint: 'channel-videos',
        id: FIXTURE_IDS.bigChannel,
        deep: Infinity,
        label: 'last page',
      },
    ];
    const rows: BenchRow[] = [];
    for (const c of cases) {
      const first = pathFor(c.endpoint, c.id);
      const deep = pathFor(
        c.endpoint,
        c.id,
        await continuationFor(pool, catalogue.headers, c.endpoint, c.id, c.deep),
      );
      const ratios: number[] = [];
      const deepTimes: number[] = [];
      const firstTimes: number[] = [];
      for (let round = 0; round < options.rounds; round++) {
        const a: number[] = [];
        const b: number[] = [];
        for (let i = 0; i < options.samples; i++) {
          a.push(await time(pool, catalogue.headers, first));
          b.push(await time(pool, catalogue.headers, deep));
        }
        firstTimes.push(median(a));
        deepTimes.push(median(b));
        ratios.push(median(b) / median(a));
      }
      const r = spread(ratios);
      rows.push({
        bench: '4',
        measure: c.measure,
        figure: `${c.label}: ${formatSpread(spread(deepTimes), 2, ' ms')}`,
        reference: `page 1: ${formatSpread(spread(firstTimes), 2, ' ms')}`,
        ratio: formatSpread(r, 2, '×'),
        target: '≤ 1.2×',
        met: r.median <= 1.2,
      });
    }
    return rows;
  } finally {
    await pool.close();
    await catalogue.stop();
  }
}
