import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

// For tests and benchmarks only: explorer replicas as users run them, `node src/server/index.ts`
// processes, each with the environment it is given (typically one upstream and one Redis
// shared by all). Each runs in an empty directory, so no developer's .env takes part.

const INDEX = resolve('src/server/index.ts');

export interface Replica {
  url: string;
  child: ChildProcess;
  /** Everything it wrote to stdout (JSON log lines) and stderr. */
  output(): string;
  /** Log lines whose `msg` matches. */
  logged(msg: RegExp): Array<Record<string, unknown>>;
  /** SIGTERM, and waits for the exit. */
  stop(): Promise<void>;
  /** SIGKILL: gone at once, mid-request. */
  kill(): Promise<void>;
}

/** Every replica started and not yet gone: killed if the test process ends first. */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

let shellDir: string | null = null;
/** A built app's stand-in: replicas need an index.html to serve pages around. */
function staticRoot(): string {
  if (shellDir === null) {
    shellDir = mkdtempSync(join(tmpdir(), 'explorer-replica-'));
    writeFileSync(
      join(shellDir, 'index.html'),
      '<!doctype html><div id="root"><!--app-html--></div><!--app-state-->',
    );
    const dir = shellDir;
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return shellDir;
}

export async function startReplica(env: Record<string, string>): Promise<Replica> {
  const root = staticRoot();
  const child = spawn(process.execPath, [INDEX], {
    cwd: root,
    env: {
      STATIC_ROOT: root,
      PORT: '0',
      HOST: '127.0.0.1',
      CATALOGUE_API_KEY: 'test-key',
      CATALOGUE_API_SECRET: 'test-secret',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let out = '';
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const logged = (msg: RegExp) =>
    out
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter((line) => msg.test(String(line.msg)));

  let url: string | undefined;
  for (let waited = 0; waited < 20_000 && url === undefined; waited += 20) {
    const line = logged(/^explorer listening$/)[0];
    if (line) url = String(line.url);
    else if (child.exitCode !== null) break;
    else await sleep(20);
  }
  if (url === undefined) {
    child.kill('SIGKILL');
    throw new Error(`the replica did not start:\n${out}`);
  }
  return {
    url,
    child,
    output: () => out,
    logged,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
    async kill() {
      if (child.exitCode === null) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Starts `count` replicas with one environment; if one cannot start, none is left running. */
/** `count` replicas with `env`, each with `each[i]` over it where given. */
export async function startReplicas(
  count: number,
  env: Record<string, string>,
  each: Array<Record<string, string>> = [],
): Promise<Replica[]> {
  const started = await Promise.allSettled(
    Array.from({ length: count }, (_, i) => startReplica({ ...env, ...each[i] })),
  );
  const replicas = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = started.find((s) => s.status === 'rejected');
  if (failed !== undefined) {
    await Promise.all(replicas.map((r) => r.kill()));
    throw failed.reason;
  }
  return replicas;
}
