import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BUILT_SERVER, staleBuild } from '../src/server/start.ts';
import { startFlags } from '../src/test-support/start-flags.ts';
import { familyTotal, SCRAPE_TOKEN, scrapeSamples } from '../src/test-support/metrics-scrape.ts';
import { freePort, withAllCores } from './processes.ts';
import { formatSpread, spread } from './stats.ts';
import type { BenchRow } from './table.ts';

// Bench "start": how long the explorer takes from its command to answering /healthz, run from
// its build (what `npm start` runs) and from its TypeScript source (what `npm run dev` and the
// tests run), alternating; `npm start` itself on a built tree (its staleness check, then the
// built server); and each one's heap after start, idle, from its own metrics. Each start has a
// fresh state folder and the embedded catalogue. Unlike the other benches' servers it is not
// pinned to one core: Node compiles and collects on helper threads while it starts, as it does
// on any deployment's cores, and on one core those threads wait for the main one.

interface Started {
  ms: number;
  heapMb: number;
}

/**
 * One start of `command`: the time to /healthz, then the heap in use once it has settled for
 * `settleMs`.
 */
async function startOnce(command: string, args: string[], settleMs: number): Promise<Started> {
  const port = await freePort();
  const stateDir = mkdtempSync(join(tmpdir(), 'bench-start-'));
  const started = performance.now();
  // Its own process group: `npm start` becomes the server through a shell, and all of it stops.
  const child = spawn(command, args, {
    detached: true,
    stdio: 'ignore',
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      STATE_DIR: stateDir,
      METRICS_TOKEN: SCRAPE_TOKEN,
      CATALOGUE_BASE_URL: '',
    },
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    let ms = Number.NaN;
    for (let i = 0; i < 3_000 && Number.isNaN(ms); i++) {
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited early`);
      try {
        if ((await fetch(`${url}/healthz`)).ok) ms = performance.now() - started;
      } catch {
        await sleep(5);
      }
    }
    if (Number.isNaN(ms)) throw new Error(`${args.join(' ')} did not answer within 15 s`);
    // Idle: what start-up allocated and left, once the first collections have run.
    await sleep(settleMs);
    const used = familyTotal(await scrapeSamples(url), 'explorer_nodejs_heap_size_used_bytes');
    return { ms, heapMb: used / 2 ** 20 };
  } finally {
    if (child.pid !== undefined && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid, 'SIGTERM');
      await Promise.race([exited, sleep(5_000)]);
    }
    rmSync(stateDir, { recursive: true, force: true });
  }
}

interface Options {
  rounds: number;
  /** How long a started server idles before its heap is read. */
  settleMs: number;
}

export async function benchStartUp(options: Options): Promise<BenchRow[]> {
  return withAllCores(() => measureStartUp(options));
}

async function measureStartUp(options: Options): Promise<BenchRow[]> {
  const flags = startFlags();
  const built: Started[] = [];
  const source: Started[] = [];
  const npmStart: Started[] = [];
  const stale = staleBuild();
  for (let r = 0; r < options.rounds; r++) {
    built.push(await startOnce(process.execPath, [...flags, BUILT_SERVER], options.settleMs));
    source.push(
      await startOnce(process.execPath, [...flags, 'src/server/index.ts'], options.settleMs),
    );
    if (stale === null)
      npmStart.push(await startOnce('npm', ['start', '--silent'], options.settleMs));
  }
  const ms = (runs: Started[]) => spread(runs.map((s) => s.ms));
  const heap = (runs: Started[]) => spread(runs.map((s) => s.heapMb));
  const rows: BenchRow[] = [
    {
      bench: 'start',
      measure: `server start: command → /healthz answers, from the build (${options.rounds} rounds)`,
      figure: formatSpread(ms(built), 0, ' ms'),
      reference: `from the TypeScript source ${formatSpread(ms(source), 0, ' ms')}`,
      ratio: `${(ms(built).median / ms(source).median).toFixed(2)}×`,
      target: '≤ 1,000 ms',
      met: ms(built).median <= 1_000,
    },
    {
      bench: 'start',
      measure: `server start: heap in use ${options.settleMs / 1000} s after start, idle`,
      figure: `${formatSpread(heap(built), 1, ' MB')} from the build`,
      reference: `from the TypeScript source ${formatSpread(heap(source), 1, ' MB')}`,
      ratio: `${(heap(built).median / heap(source).median).toFixed(2)}×`,
      target: '–',
      met: null,
    },
  ];
  rows.push(
    stale === null
      ? {
          bench: 'start',
          measure: '`npm start` on a built tree: command → /healthz answers',
          figure: formatSpread(ms(npmStart), 0, ' ms'),
          reference: `the built server alone ${formatSpread(ms(built), 0, ' ms')}`,
          ratio: `+${Math.round(ms(npmStart).median - ms(built).median)} ms`,
          target: '≤ 1,500 ms',
          met: ms(npmStart).median <= 1_500,
        }
      : {
          bench: 'start',
          measure: '`npm start` on a built tree: not run',
          figure: '–',
          reference: `the build is stale (${stale}): npm start would build first`,
          ratio: '–',
          target: '≤ 1,500 ms',
          met: null,
        },
  );
  return rows;
}
