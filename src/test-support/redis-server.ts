import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort } from './free-port.ts';

// For tests and benchmarks only: a real redis-server (Debian's package) on a free
// loopback port, with persistence off, started and stopped by the test itself. `stop` and
// `start` again on the same port stand for an outage and a restart (with its memory empty, as
// a restarted Redis without persistence comes back).

export interface TestRedis {
  url: string;
  port: number;
  /** Starts it again on the same port (after `stop`). */
  start(): Promise<void>;
  /** Stops it (SIGKILL: gone at once, as in a crash). */
  stop(): Promise<void>;
  /** Freezes it (SIGSTOP): connected but answering nothing, the slow Redis. */
  freeze(): void;
  thaw(): void;
}

export const REDIS_SERVER = '/usr/bin/redis-server';

export async function startTestRedis(): Promise<TestRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;

  const start = async () => {
    if (child !== null && child.exitCode === null) return;
    const proc = spawn(
      REDIS_SERVER,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child = proc;
    let output = '';
    proc.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    proc.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    for (let waited = 0; waited < 10_000; waited += 20) {
      if (output.includes('Ready to accept connections')) return;
      if (proc.exitCode !== null) break;
      await sleep(20);
    }
    proc.kill('SIGKILL');
    throw new Error(`redis-server did not start on ${port}:\n${output}`);
  };

  const stop = async () => {
    const proc = child;
    child = null;
    if (proc === null || proc.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
    proc.kill('SIGCONT');
    proc.kill('SIGKILL');
    await exited;
  };

  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    start,
    stop,
    freeze: () => child?.kill('SIGSTOP'),
    thaw: () => child?.kill('SIGCONT'),
  };
}
