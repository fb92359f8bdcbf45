import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from 'pino';
import { startCatalogue, type StartedCatalogue } from '../catalogue/start-catalogue.ts';
import { readServerConfig } from '../server/config.ts';
import { createLogger } from '../server/observability/logger.ts';
import { createHttpEdge } from '../server/process/http-server.ts';
import { startExplorer, type Explorer } from '../server/process/start-explorer.ts';
import { freePort } from './free-port.ts';
import { startCountingProxy, type TestUpstream } from './test-upstream.ts';

// For tests only: the embedded catalogue on loopback, a proxy in front of it that counts every
// request reaching it (so a test can tell what cost an upstream call), and explorers in front of
// that proxy, as many as a test needs: in this process (`serve`: the configuration read as
// `npm start` reads it, served behind the same HTTP edge on a loopback port) or as
// `node src/server/index.ts` in a child process (`spawn`). The catalogue's faults are switched
// at run time (`/__faults`). One `close()` stops everything the fixture started.

/** Variables for an explorer; `undefined` leaves one out (a configuration without it). */
export type ExplorerEnv = Record<string, string | undefined>;

export interface ExplorerFixtureOptions {
  /** The credentials the catalogue demands; made up for the fixture unless given. */
  apiKey?: string;
  apiSecret?: string;
  /** The catalogue's database folder; default data. */
  dataDir?: string;
  /** Whether `/__faults` switches faults at run time (`setFaults`); default true. */
  faultControl?: boolean;
  /**
   * The catalogue in a child process of its own (`npm run catalogue`) rather than in the
   * test's: for tests that run several long walks at once, whose catalogues would otherwise
   * share the test's one thread with each other and with the test's own checks.
   */
  catalogueProcess?: boolean;
}

export interface ServedExplorer {
  url: string;
  port: number;
  explorer: Explorer;
  /** `fetch` on this explorer's origin. */
  get(path: string, init?: RequestInit): Promise<Response>;
  /** Stops serving and closes the explorer (its embedded catalogue, if it has one). */
  close(): Promise<void>;
}

export interface ExplorerChild {
  child: ChildProcess;
  /** Its exit code, once it has exited. */
  exited: Promise<number | null>;
  stdout(): string;
  stderr(): string;
  /** The URL it listens on, once its log says so; rejects if it exits or takes too long first. */
  listening(): Promise<string>;
}

export interface ExplorerFixture {
  catalogue: StartedCatalogue;
  /** The counting proxy in front of the catalogue: every explorer's upstream unless told. */
  upstream: TestUpstream;
  apiKey: string;
  apiSecret: string;
  /** An explorer's configuration for the counting proxy, with the catalogue's credentials. */
  upstreamEnv: Record<string, string>;
  /** Switches the catalogue's faults (spec §5.3), e.g. `{ latencyMs: 100 }`. */
  setFaults(faults: object): Promise<void>;
  /** Faults off and the proxy's count back to zero, for the next test. */
  reset(): Promise<void>;
  /**
   * An explorer in this process, behind the HTTP edge on a loopback port; `env` adds to
   * `upstreamEnv` (`CATALOGUE_BASE_URL: ''` is the embedded mode, as in a .env file).
   */
  /** `warmUp: false` leaves the renderer unloaded, as a process is just after it listens. */
  serve(
    env?: ExplorerEnv,
    options?: { logger?: Logger; warmUp?: boolean },
  ): Promise<ServedExplorer>;
  /**
   * `node src/server/index.ts` in an empty folder, so that no developer's .env takes part;
   * `env` as for `serve`; `nodeArgs` before the script (e.g. `npm start`'s flags).
   */
  spawn(env?: ExplorerEnv, options?: { nodeArgs?: string[] }): ExplorerChild;
  close(): Promise<void>;
}

const INDEX = resolve('src/server/index.ts');
/** How long a child may take to listen on a loaded machine. */
const START_MS = 20_000;

const defined = (env: ExplorerEnv) =>
  Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined)) as Record<
    string,
    string
  >;

/** `node src/catalogue/index.ts` on a free loopback port, once it answers. */
async function catalogueChild(options: {
  apiKey: string;
  apiSecret: string;
  dataDir: string;
  faultControl: boolean;
}): Promise<StartedCatalogue> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [resolve('src/catalogue/index.ts')], {
    env: {
      CATALOGUE_HOST: '127.0.0.1',
      CATALOGUE_PORT: String(port),
      CATALOGUE_API_KEY: options.apiKey,
      CATALOGUE_API_SECRET: options.apiSecret,
      CATALOGUE_DATA_DIR: options.dataDir,
      CATALOGUE_FAULT_CONTROL: String(options.faultControl),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise((done) => child.once('exit', done));
  for (let waited = 0; ; waited += 50) {
    const answered = await fetch(`${url}/api/v1/playlist`).then(
      (response) => response.body?.cancel().then(() => true),
      () => false,
    );
    if (answered) break;
    if (child.exitCode !== null || waited > START_MS) {
      child.kill('SIGKILL');
      throw new Error(`the catalogue did not start:\n${stderr}`);
    }
    await sleep(50);
  }
  return {
    url,
    async close() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export async function startExplorerFixture(
  options: ExplorerFixtureOptions = {},
): Promise<ExplorerFixture> {
  const apiKey = options.apiKey ?? randomBytes(16).toString('hex');
  const apiSecret = options.apiSecret ?? randomBytes(24).toString('base64url');
  const dataDir = resolve(options.dataDir ?? 'data');
  const catalogueOptions = {
    apiKey,
    apiSecret,
    dataDir,
    thumbnailBaseUrl: '',
    faultControl: options.faultControl ?? true,
  };
  const catalogue = options.catalogueProcess
    ? await catalogueChild(catalogueOptions)
    : await startCatalogue(catalogueOptions);
  let upstream: TestUpstream;
  try {
    upstream = await startCountingProxy(catalogue.url);
  } catch (error) {
    await catalogue.close();
    throw error;
  }
  const upstreamEnv = {
    CATALOGUE_BASE_URL: upstream.url,
    CATALOGUE_API_KEY: apiKey,
    CATALOGUE_API_SECRET: apiSecret,
  };
  // The hour's spending in memory: each explorer of a test starts from a fresh hour, unless
  // the test gives it a state file of its own (STATE_DIR).
  const envFor = (env: ExplorerEnv) =>
    defined({ CATALOGUE_DATA_DIR: dataDir, STATE_DIR: '', ...upstreamEnv, ...env });
  const faults = (init: RequestInit) =>
    fetch(`${catalogue.url}/__faults`, init).then(async (response) => {
      if (!response.ok) throw new Error(`/__faults answered ${response.status}`);
      await response.body?.cancel();
    });

  const served = new Set<ServedExplorer>();
  const children = new Set<ChildProcess>();
  let workDir: string | undefined;

  async function serve(
    env: ExplorerEnv = {},
    { logger = createLogger('silent'), warmUp = true } = {},
  ) {
    // The test and this explorer share one thread: a long check in the test (a deep equal of a
    // whole list) holds back the server's keep-alive timer with the client's, and the next
    // request may go out on a socket the server closes as soon as its timer runs. A keep-alive
    // longer than any such check keeps that race out; a test of the timeouts sets its own.
    const config = readServerConfig(
      envFor({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '20000', HTTP_IDLE_TIMEOUT_MS: '60000', ...env }),
    );
    const explorer = await startExplorer(config, logger);
    const edge = createHttpEdge(explorer.listener, { timeouts: config.http, logger });
    await new Promise<void>((done) => edge.server.listen(0, '127.0.0.1', done));
    // As index.ts does once listening; awaited, so that no test's first render pays for it.
    if (warmUp) await explorer.warmUp();
    const { port } = edge.server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}`;
    const one: ServedExplorer = {
      url,
      port,
      explorer,
      get: (path, init) => fetch(`${url}${path}`, init),
      async close() {
        if (!served.delete(one)) return;
        const stopped = edge.shutdown(1_000);
        // The test is done with it: idle keep-alive connections are cut, not waited out.
        edge.server.closeAllConnections();
        await stopped;
        await explorer.close();
      },
    };
    served.add(one);
    return one;
  }

  function spawnExplorer(
    env: ExplorerEnv = {},
    { nodeArgs = [] }: { nodeArgs?: string[] } = {},
  ): ExplorerChild {
    if (workDir === undefined) {
      workDir = mkdtempSync(join(tmpdir(), 'explorer-run-'));
      writeFileSync(
        join(workDir, 'index.html'),
        '<!doctype html><div id="root"><!--app-html--></div><!--app-state-->',
      );
    }
    const child = spawn(process.execPath, [...nodeArgs, INDEX], {
      cwd: workDir,
      env: envFor({
        STATIC_ROOT: workDir,
        PORT: '0',
        HOST: '127.0.0.1',
        ...env,
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((done) =>
      child.once('exit', (code) => {
        children.delete(child);
        done(code);
      }),
    );
    const listening = async () => {
      for (let waited = 0; waited < START_MS; waited += 20) {
        const line = stdout.split('\n').find((l) => l.includes('"explorer listening"'));
        if (line) return (JSON.parse(line) as { url: string }).url;
        if (child.exitCode !== null) break;
        await sleep(20);
      }
      throw new Error(`the explorer did not start:\n${JSON.stringify({ stdout, stderr })}`);
    };
    return { child, exited, stdout: () => stdout, stderr: () => stderr, listening };
  }

  return {
    catalogue,
    upstream,
    apiKey,
    apiSecret,
    upstreamEnv,
    setFaults: (settings) =>
      faults({
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(settings),
      }),
    async reset() {
      await faults({ method: 'DELETE' });
      upstream.reset();
    },
    serve,
    spawn: spawnExplorer,
    async close() {
      await Promise.all([...served].map((one) => one.close()));
      await Promise.all(
        [...children].map(async (child) => {
          const gone = new Promise((done) => child.once('exit', done));
          child.kill('SIGKILL');
          await gone;
        }),
      );
      if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
      await upstream.close();
      await catalogue.close();
    },
  };
}
