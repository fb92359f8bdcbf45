import { existsSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { parseArgs } from 'node:util';
import { benchDragDeep } from './app-drag.ts';
import { benchAppFirstView } from './app-first-view.ts';
import { benchAppScrolling } from './app-scrolling.ts';
import { benchFind } from './app-find.ts';
import { benchWholePlaylist } from './app-whole-playlist.ts';
import { bundleRows } from './bundle-size.ts';
import { benchCataloguePaging } from './catalogue-paging.ts';
import { hasCommand, pinSelf } from './processes.ts';
import { benchProxyCached } from './proxy-cached.ts';
import { benchProxyUncached } from './proxy-uncached.ts';
import { benchReplicas } from './replicas.ts';
import { benchStampede } from './stampede.ts';
import { renderTable, type BenchRow } from './table.ts';
import { benchWholeListWalks } from './whole-list-walk.ts';

// `npm run bench`: the benchmarks (docs/benchmarks.md), each beside a reference measured
// in the same run. `--smoke` runs each for a moment, so that `npm test` keeps them from rotting;
// its figures mean nothing. `--only 1,4` picks some. `--out FILE` also writes the table (the
// full run's goes to docs/bench.md).

const { values } = parseArgs({
  options: {
    smoke: { type: 'boolean', default: false },
    only: { type: 'string' },
    out: { type: 'string' },
  },
});
const smoke = values.smoke;
const only = values.only ? new Set(values.only.split(',')) : null;

if (!existsSync('dist/index.html')) {
  console.error('bench: build the app first (npm run build).');
  process.exit(1);
}
if (!hasCommand('wrk'))
  console.warn('bench: wrk is not installed (apt-get install wrk); benches 1 and 2 need it.');
pinSelf();

const base = smoke ? { rounds: 1, samples: 3, seconds: 1 } : { rounds: 5, samples: 50, seconds: 5 };
const benches: Array<[string, () => Promise<BenchRow[]>]> = [
  ['1', () => benchProxyCached(base)],
  ['2', () => benchProxyUncached({ ...base, rounds: smoke ? 1 : 3, pages: smoke ? 5 : 300 })],
  ['3', () => benchStampede({ ...base, rounds: smoke ? 2 : 10, concurrency: smoke ? 20 : 100 })],
  ['4', () => benchCataloguePaging({ ...base, samples: smoke ? 5 : 100 })],
  ['5', () => benchAppFirstView({ ...base, rounds: smoke ? 1 : 5, samples: smoke ? 1 : 5 })],
  ['6', () => benchAppScrolling({ pixelsPerSecond: 8000, maxSeconds: smoke ? 2 : 150 })],
  ['7', () => benchWholePlaylist({ ...base, rounds: smoke ? 1 : 3 })],
  ['8', async () => bundleRows()],
  ['9', () => benchDragDeep({ ...base, rounds: smoke ? 1 : 5 })],
  ['10', () => benchWholeListWalks({ ...base, rounds: smoke ? 1 : 5 })],
  ['12', () => benchFind({ ...base, rounds: smoke ? 1 : 3 })],
  ['13', () => benchReplicas({ ...base, rounds: smoke ? 1 : 5, samples: smoke ? 1 : 50 })],
];

const rows: BenchRow[] = [];
let failed = 0;
for (const [id, run] of benches) {
  if (only && !only.has(id)) continue;
  const started = Date.now();
  try {
    if (id === '1' || id === '2') {
      if (!hasCommand('wrk')) {
        rows.push({
          bench: id,
          measure: 'needs wrk',
          figure: '–',
          reference: 'wrk not installed (apt-get install wrk)',
          ratio: '–',
          target: '–',
          met: null,
        });
        continue;
      }
    }
    rows.push(...(await run()));
  } catch (error) {
    failed++;
    rows.push({
      bench: id,
      measure: 'FAILED',
      figure: String(error instanceof Error ? error.message : error).split('\n')[0]!,
      reference: '–',
      ratio: '–',
      target: '–',
      met: false,
    });
    console.error(error);
  }
  console.error(`bench #${id}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

const machine = `${cpus().length} cores (${cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}`;
const table = `${renderTable(rows)}\n\n${smoke ? 'SMOKE RUN: figures are not measurements. ' : ''}Machine: ${machine}. Medians with (min–max) over rounds.`;
console.log(table);
if (values.out) writeFileSync(values.out, `${table}\n`);
// The smoke run fails only when a benchmark breaks, not when a target is missed.
process.exit(failed > 0 ? 1 : 0);
