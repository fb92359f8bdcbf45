import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
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
// on any deployment's cores, and on one core those threads wait for the main one. A round in
// which `npm start` would build first (the sources changed since the build) is left out.

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
    // A deadline in time, not in tries: on a busy machine each try takes longer than its pause.
    while (Number.isNaN(ms) && performance.now() - started < 15_000) {
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

/**
 * One start of `npm start`, or null when it built first: someone changed the sources since the
 * build (others edit the tree while benches run), so the round would time a build, not a start.
 */
async function npmStartOnce(settleMs: number): Promise<Started | null> {
  if (staleBuild() !== null) return null;
  const builtAt = statSync(BUILT_SERVER).mtimeMs;
  const rebuilt = () => statSync(BUILT_SERVER).mtimeMs !== builtAt;
  try {
    const started = await startOnce('npm', ['start', '--silent'], settleMs);
    return rebuilt() ? null : started;
  } catch (error) {
    if (rebuilt()) return null;
    throw error;
  }
}

async function measureStartUp(options: Options): Promise<BenchRow[]> {
  const flags = startFlags();
  const built: Started[] = [];
  const source: Started[] = [];
  const npmStart: Started[] = [];
  const stale = staleBuild();
  let leftOut = 0;
  for (let r = 0; r < options.rounds; r++) {
    built.push(await startOnce(process.execPath, [...flags, BUILT_SERVER], options.settleMs));
    source.push(
      await startOnce(process.execPath, [...flags, 'src/server/index.ts'], options.settleMs),
    );
    if (stale === null) {
      const started = await npmStartOnce(options.settleMs);
      if (started === null) leftOut++;
      else npmStart.push(started);
    }
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
  const leftOutNote =
    leftOut === 0 ? '' : `; ${leftOut} rounds left out, the sources changed since the build`;
  rows.push(
    stale === null && npmStart.length > 0
      ? {
          bench: 'start',
          measure: `\`npm start\` on a built tree: command → /healthz answers (${npmStart.length} rounds)`,
          figure: formatSpread(ms(npmStart), 0, ' ms'),
          reference: `the built server alone ${formatSpread(ms(built), 0, ' ms')}${leftOutNote}`,
          ratio: `+${Math.round(ms(npmStart).median - ms(built).median)} ms`,
          target: '≤ 1,500 ms',
          met: ms(npmStart).median <= 1_500,
        }
      : {
          bench: 'start',
          measure: '`npm start` on a built tree: not run',
          figure: '–',
          reference:
            stale === null
              ? 'the sources changed during every round: npm start built first'
              : `the build is stale (${stale}): npm start would build first`,
          ratio: '–',
          target: '≤ 1,500 ms',
          met: null,
        },
  );
  return rows;
}
