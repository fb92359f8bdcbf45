import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIXTURE_IDS } from '../src/catalogue/demo-fixtures.ts';
import { catalogueStart, type BenchOptions } from './catalogue-paging.ts';
import { startExplorer } from './explorer.ts';
import {
  freePort,
  hasCommand,
  runWrk,
  SERVER_CORE,
  startChild,
  type WrkResult,
} from './processes.ts';
import { formatSpread, spread } from './stats.ts';
import type { BenchRow } from './table.ts';

// Bench 1: the explorer answering a cached 100-item playlist page, against nginx serving the same
// bytes as a static file and a bare node:http server answering them from memory (the floor for any
// Node server). All three run on the server core; wrk runs on the other.

const PAGE_PATH = `/api/v1/playlist?id=${FIXTURE_IDS.playlist100}`;

async function bareNode(bytes: Buffer): Promise<{ url: string; stop: () => Promise<void> }> {
  // Run in a child so that it has a core to itself, like the others.
  const port = await freePort();
  const file = join(mkdtempSync(join(tmpdir(), 'bench-bare-')), 'page.json');
  writeFileSync(file, bytes);
  const source = `
    const body = require('node:fs').readFileSync(${JSON.stringify(file)});
    require('node:http').createServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': body.length });
      res.end(body);
    }).listen(${port}, '127.0.0.1');`;
  const child = await startChild(
    SERVER_CORE,
    process.execPath,
    ['-e', source],
    {},
    `http://127.0.0.1:${port}/`,
  );
  return { url: `http://127.0.0.1:${port}/`, stop: child.stop };
}

async function nginx(bytes: Buffer): Promise<{ url: string; stop: () => Promise<void> } | null> {
  const binary = ['/usr/sbin/nginx', 'nginx'].find((b) => hasCommand(b));
  if (!binary) return null;
  const dir = mkdtempSync(join(tmpdir(), 'bench-nginx-'));
  chmodSync(dir, 0o755);
  writeFileSync(join(dir, 'page.json'), bytes);
  const port = await freePort();
  writeFileSync(
    join(dir, 'nginx.conf'),
    `worker_processes 1; daemon off; user root; pid ${dir}/nginx.pid; error_log ${dir}/error.log;
     events { worker_connections 1024; }
     http { access_log off; keepalive_requests 1000000;
       server { listen 127.0.0.1:${port}; root ${dir}; default_type application/json; } }`,
  );
  const child = await startChild(
    SERVER_CORE,
    binary,
    ['-p', dir, '-c', join(dir, 'nginx.conf')],
    {},
    `http://127.0.0.1:${port}/page.json`,
  );
  return {
    url: `http://127.0.0.1:${port}/page.json`,
    stop: async () => {
      await child.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function summarise(results: WrkResult[]) {
  return {
    rps: spread(results.map((r) => r.requestsPerSecond)),
    p50: spread(results.map((r) => r.p50Ms)),
    p99: spread(results.map((r) => r.p99Ms)),
  };
}

export async function benchProxyCached(options: BenchOptions): Promise<BenchRow[]> {
  const catalogue = await catalogueStart();
  const explorer = await startExplorer(catalogue);
  const stops: Array<() => Promise<void>> = [explorer.stop, catalogue.stop];
  try {
    const explorerUrl = `${explorer.url}${PAGE_PATH}`;
    const response = await fetch(explorerUrl, { headers: { 'Accept-Encoding': 'identity' } });
    if (response.status !== 200) throw new Error(`explorer answered ${response.status}`);
    const bytes = Buffer.from(await response.arrayBuffer());
    const bare = await bareNode(bytes);
    stops.push(bare.stop);
    const ngx = await nginx(bytes);
    if (ngx) stops.push(ngx.stop);

    const runs = { explorer: [] as WrkResult[], bare: [] as WrkResult[], nginx: [] as WrkResult[] };
    for (let round = 0; round < options.rounds; round++) {
      // Interleaved rounds, so that a noisy moment hurts all three alike.
      runs.explorer.push(runWrk(explorerUrl, options.seconds));
      runs.bare.push(runWrk(bare.url, options.seconds));
      if (ngx) runs.nginx.push(runWrk(ngx.url, options.seconds));
    }
    const errors = runs.explorer.reduce((sum, r) => sum + r.errors, 0);
    const e = summarise(runs.explorer);
    const b = summarise(runs.bare);
    const ratios = spread(
      runs.explorer.map((r, i) => r.requestsPerSecond / runs.bare[i]!.requestsPerSecond),
    );
    const rows: BenchRow[] = [
      {
        bench: '1',
        measure: `proxy, cached page: requests/s${errors ? ` (${errors} errors!)` : ''}`,
        figure: formatSpread(e.rps),
        reference: `bare node:http ${formatSpread(b.rps)}`,
        ratio: formatSpread(ratios, 2, '×'),
        target: '≥ 0.9× bare Node',
        met: ratios.median >= 0.9 && errors === 0,
      },
      {
        bench: '1',
        measure: 'proxy, cached page: p50 / p99 latency',
        figure: `${e.p50.median.toFixed(2)} / ${e.p99.median.toFixed(2)} ms`,
        reference: `bare node:http ${b.p50.median.toFixed(2)} / ${b.p99.median.toFixed(2)} ms`,
        ratio: `${(e.p50.median / b.p50.median).toFixed(2)}× / ${(e.p99.median / b.p99.median).toFixed(2)}×`,
        target: '–',
        met: null,
      },
    ];
    if (ngx) {
      const n = summarise(runs.nginx);
      rows.push({
        bench: '1',
        measure: 'proxy, cached page: vs nginx static file (req/s; p50 / p99)',
        figure: `${formatSpread(e.rps)}; ${e.p50.median.toFixed(2)} / ${e.p99.median.toFixed(2)} ms`,
        reference: `nginx ${formatSpread(n.rps)}; ${n.p50.median.toFixed(2)} / ${n.p99.median.toFixed(2)} ms`,
        ratio: `${(e.rps.median / n.rps.median).toFixed(2)}×`,
        target: '–',
        met: null,
      });
    } else {
      rows.push({
        bench: '1',
        measure: 'proxy, cached page: vs nginx',
        figure: '–',
        reference: 'nginx not installed (apt-get install nginx-light)',
        ratio: '–',
        target: '–',
        met: null,
      });
    }
    return rows;
  } finally {
    for (const stop of stops.reverse()) await stop();
  }
}
