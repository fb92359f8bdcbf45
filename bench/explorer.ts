import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFlags } from '../src/test-support/start-flags.ts';
import { BUILT_SERVER, SERVER_ENV } from '../src/server/start.ts';
import { freePort, SERVER_CORE, startChild, type Child } from './processes.ts';

// The explorer server as users run it (`node src/server/index.ts`, after `npm run build`),
// pinned to the server core. Quota and per-client limits are lifted: a benchmark is one
// client sending far more than a person would, and it measures speed, not the guard. Chain
// warming is off unless a bench turns it on: behind a browser's navigation it would fetch
// pages ahead of what a bench measures, and race its reference; benches 7 and 9 measure it.

export interface Upstream {
  url: string;
  headers: Record<string, string>;
}

export interface Explorer {
  url: string;
  child: Child;
  stop: () => Promise<void>;
}

const withoutUnset = (env: Record<string, string | undefined>) =>
  Object.fromEntries(
    Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );

/**
 * A built explorer on a core of its own. `env` adds to the bench's settings or replaces them;
 * a setting given as undefined is left out, so that the explorer takes its own default.
 */
export async function startExplorer(
  upstream?: Upstream,
  env: Record<string, string | undefined> = {},
): Promise<Explorer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // The quota journal is written as by default (each call let through), in a folder of this
  // explorer's own: a bench's hour starts fresh.
  const stateDir = mkdtempSync(join(tmpdir(), 'bench-explorer-state-'));
  const child = await startChild(
    SERVER_CORE,
    process.execPath,
    // The built server with the flags of `npm start` (package.json), as a deployment runs it.
    [...startFlags(), BUILT_SERVER],
    withoutUnset({
      ...SERVER_ENV,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      CATALOGUE_QUOTA: '100000000',
      CLIENT_RATE_LIMIT_BURST: '100000000',
      CLIENT_RATE_LIMIT_PER_SECOND: '100000000',
      CHAIN_WARM_SHARE: '0',
      // No bench measures a stop: the shortest graceful one, so that a run waits on none.
      SHUTDOWN_DEADLINE_MS: '500',
      STATE_DIR: stateDir,
      ...(upstream
        ? {
            CATALOGUE_BASE_URL: upstream.url,
            CATALOGUE_API_KEY: upstream.headers['API-Key']!,
            CATALOGUE_API_SECRET: upstream.headers['API-Secret']!,
          }
        : { CATALOGUE_BASE_URL: '' }),
      ...env,
    }),
    `${url}/healthz`,
  );
  const stop = async () => {
    await child.stop();
    rmSync(stateDir, { recursive: true, force: true });
  };
  return { url, child, stop };
}
