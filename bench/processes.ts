import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { availableParallelism, cpus } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';

// Child processes for the benchmarks. On a machine with two or more cores the server under
// test runs on core 0 and the load generator (wrk, or this process) on core 1, so that the
// generator is never the bottleneck and the two do not steal each other's time.

export const SERVER_CORE = '0';
export const CLIENT_CORE = '1';

export const hasCommand = (name: string) =>
  spawnSync('sh', ['-c', `command -v ${name}`]).status === 0;
const canPin = availableParallelism() >= 2 && hasCommand('taskset');

/** Pins this process (the client side) to the client core. */
export function pinSelf(): void {
  if (canPin)
    spawnSync('taskset', ['-a', '-p', '-c', CLIENT_CORE, String(process.pid)], { stdio: 'ignore' });
}

/**
 * Runs `launch` with this process free to use every core, then pins it back: what `launch`
 * starts (a browser, whose processes inherit the mask) runs on all of them, as a reader's browser
 * does. Pinned to the client core with this process, Chromium's main thread, compositor, raster
 * and network service, and Lighthouse's trace processing shared one core, which no phone or
 * laptop imposes: long tasks and Lighthouse's blocking time measured the pinning.
 */
export async function withAllCores<T>(launch: () => Promise<T>): Promise<T> {
  // cpus(), not availableParallelism(): the latter counts only the cores this process may use.
  return onCore(`0-${cpus().length - 1}`, launch);
}

/** Runs `work` with this process (and what it starts meanwhile) on `core`, then pins it back. */
export async function onCore<T>(core: string, work: () => Promise<T>): Promise<T> {
  if (!canPin) return work();
  spawnSync('taskset', ['-a', '-p', '-c', core, String(process.pid)], { stdio: 'ignore' });
  try {
    return await work();
  } finally {
    pinSelf();
  }
}

export function pinned(core: string, command: string, args: string[]): [string, string[]] {
  return canPin ? ['taskset', ['-c', core, command, ...args]] : [command, args];
}

export { freePort } from '../src/test-support/free-port.ts';

export interface Child {
  process: ChildProcess;
  output: () => string;
  stop: () => Promise<void>;
}

/** Starts a pinned child and waits until `readyUrl` answers (any status). */
export async function startChild(
  core: string,
  command: string,
  args: string[],
  env: Record<string, string>,
  readyUrl: string,
): Promise<Child> {
  const [cmd, argv] = pinned(core, command, args);
  const child = spawn(cmd, argv, {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
  child.stderr.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-20_000)));
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(5000).then(() => child.kill('SIGKILL'))]);
  };
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${command} exited early:\n${output}`);
    try {
      await fetch(readyUrl);
      return { process: child, output: () => output, stop };
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`${command} did not answer ${readyUrl} within 30 s:\n${output}`);
      }
      await sleep(100);
    }
  }
}

export interface WrkResult {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  errors: number;
}

const toMs = (value: string, unit: string) =>
  Number(value) * ({ us: 0.001, ms: 1, s: 1000 } as Record<string, number>)[unit]!;

/** Runs wrk on the client core and reads its --latency report. */
export function runWrk(
  url: string,
  seconds: number,
  connections = 32,
  headers: string[] = [],
): WrkResult {
  const [cmd, argv] = pinned(CLIENT_CORE, 'wrk', [
    '-t1',
    `-c${connections}`,
    `-d${seconds}s`,
    '--latency',
    ...headers.flatMap((h) => ['-H', h]),
    url,
  ]);
  const result = spawnSync(cmd, argv, { encoding: 'utf8' });
  const out = result.stdout;
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(out);
  const p50 = /\s50%\s+([\d.]+)(us|ms|s)/.exec(out);
  const p99 = /\s99%\s+([\d.]+)(us|ms|s)/.exec(out);
  if (!rps || !p50 || !p99) throw new Error(`wrk output not understood:\n${out}\n${result.stderr}`);
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(out);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(
    out,
  );
  const errors =
    Number(non2xx?.[1] ?? 0) +
    (socketErrors ? socketErrors.slice(1).reduce((sum, n) => sum + Number(n), 0) : 0);
  return {
    requestsPerSecond: Number(rps[1]),
    p50Ms: toMs(p50[1]!, p50[2]!),
    p99Ms: toMs(p99[1]!, p99[2]!),
    errors,
  };
}
