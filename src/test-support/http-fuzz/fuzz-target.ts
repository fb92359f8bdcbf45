import { createHash, randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { createLogger } from '../../server/observability/logger.ts';
import { startExplorerFixture, type ExplorerFixture } from '../explorer-fixture.ts';
import type { TestUpstream } from '../test-upstream.ts';

// What the HTTP boundary fuzzer talks to: the whole explorer as `npm start` serves it (the edge
// of http-server.ts, the listener of start-explorer.ts, the app) on a loopback port, in front of
// the embedded catalogue behind a proxy that counts every request, so a case can tell whether it
// cost an upstream call. The built app is served from a copy of dist/ in a temporary folder, with
// canary files of random content planted where a path traversal would find them (beside the
// copy, and as dotfiles inside it): finding one in an answer can only mean it was served.

export interface FuzzTarget {
  /** The explorer's origin, e.g. http://127.0.0.1:41234. */
  url: string;
  port: number;
  /** The counting proxy in front of the catalogue. */
  upstream: TestUpstream;
  /** Random strings that exist only in files the explorer must never serve. */
  canaries: string[];
  /** SHA-1 (hex) of each file the explorer may serve as it is (the build, without dotfiles). */
  servable: Set<string>;
  /** SHA-1 (hex) of files inside the copy that must never be served (dotfiles, the server build). */
  forbidden: Set<string>;
  /** Error lines the explorer logged, and React's console errors, since the last call. */
  takeErrorLogs(): string[];
  /** Warnings written to the console so far (React Router's, on paths it cannot decode). */
  consoleWarnings(): number;
  /** Whole-list walks running now, as the explorer's metrics count them. */
  walksRunning(): Promise<number>;
  close(): Promise<void>;
}

export interface FuzzTargetOptions {
  /** The built app; default dist. */
  dist?: string;
  /** The catalogue's database folder; default data. */
  dataDir?: string;
}

const sha1 = (bytes: Buffer) => createHash('sha1').update(bytes).digest('hex');

/** Every file under `root`, relative paths split into segments. */
function filesUnder(root: string): string[][] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)).split(sep));
}

/** A copy of the build, with canaries inside and beside it. */
function plantSite(dist: string): { folder: string; site: string; canaries: string[] } {
  if (!existsSync(join(dist, 'index.html')))
    throw new Error(`No built app in ${dist}: run \`npm run build\` first.`);
  const folder = mkdtempSync(join(tmpdir(), 'explorer-fuzz-'));
  const site = join(folder, 'site');
  const serverBuild = join(dist, '.ssr');
  cpSync(dist, site, {
    recursive: true,
    filter: (source) => resolve(source) !== resolve(serverBuild),
  });
  // The server build imports React from node_modules: through a link it resolves from dist's
  // real place, as the explorer's own test does.
  if (existsSync(serverBuild)) symlinkSync(resolve(serverBuild), join(site, '.ssr'));

  const canaries = Array.from({ length: 4 }, () => `canary-${randomBytes(12).toString('hex')}`);
  const [outside, dotfile, assetDotfile, env] = canaries as [string, string, string, string];
  writeFileSync(join(folder, 'outside-canary.txt'), outside);
  writeFileSync(join(site, '.canary'), dotfile);
  mkdirSync(join(site, 'assets'), { recursive: true });
  writeFileSync(join(site, 'assets', '.canary.txt'), assetDotfile);
  writeFileSync(join(site, '.env'), `CATALOGUE_API_SECRET=${env}\n`);
  return { folder, site, canaries };
}

function fingerprints(site: string): { servable: Set<string>; forbidden: Set<string> } {
  const servable = new Set<string>();
  const forbidden = new Set<string>();
  for (const parts of filesUnder(site)) {
    const hash = sha1(readFileSync(join(site, ...parts)));
    if (parts.some((part) => part.startsWith('.'))) forbidden.add(hash);
    else servable.add(hash);
  }
  // A file both inside and outside a dot folder (an empty one, say) is servable after all.
  for (const hash of servable) forbidden.delete(hash);
  return { servable, forbidden };
}

export async function startFuzzTarget(options: FuzzTargetOptions = {}): Promise<FuzzTarget> {
  const { dist = 'dist', dataDir = 'data' } = options;
  const { folder, site, canaries } = plantSite(dist);

  let fixture: ExplorerFixture | undefined;
  let restoreConsole = () => {};
  try {
    fixture = await startExplorerFixture({ dataDir, faultControl: false });
    const errorLines: string[] = [];
    let warnings = 0;
    const logger = createLogger('warn', {
      write: (line: string) => {
        // pino levels: 50 error, 60 fatal.
        if (/"level":(5|6)0\b/.test(line)) errorLines.push(line);
      },
    });
    // React reports a render that went wrong on console.error, not through our logger; React
    // Router warns on console.warn of every path it cannot decode, which is no fault here
    // (such a path gets the not-found view), only counted.
    const { error: consoleError, warn: consoleWarn } = console;
    console.error = (...args: unknown[]) => {
      errorLines.push(`console.error: ${args.map(String).join(' ')}`);
    };
    console.warn = () => {
      warnings += 1;
    };
    restoreConsole = () => {
      console.error = consoleError;
      console.warn = consoleWarn;
    };
    const served = await fixture.serve(
      {
        STATIC_ROOT: site,
        // Neither limit is under test here: every valid case should be able to reach the upstream.
        CATALOGUE_QUOTA: String(Number.MAX_SAFE_INTEGER),
        CLIENT_RATE_LIMIT_BURST: String(Number.MAX_SAFE_INTEGER),
        CLIENT_SHARE_OF_WINDOW: '1',
        // Turns the metrics registry on (for the running walks) without adding a /metrics route:
        // startExplorer serves no metrics port (src/server/index.ts does), and no token is set.
        METRICS_PORT: '1',
      },
      { logger },
    );
    const { metrics } = served.explorer;
    if (metrics === null) throw new Error('The fuzz target needs the explorer’s metrics.');
    const started = fixture;
    return {
      url: served.url,
      port: served.port,
      upstream: started.upstream,
      canaries,
      ...fingerprints(site),
      takeErrorLogs: () => errorLines.splice(0),
      consoleWarnings: () => warnings,
      async walksRunning() {
        const match = /^explorer_walks_running\{of="walks"\} (\d+)$/m.exec(await metrics.text());
        return Number(match?.[1] ?? 0);
      },
      async close() {
        await started.close();
        restoreConsole();
        rmSync(folder, { recursive: true, force: true });
      },
    };
  } catch (error) {
    restoreConsole();
    await fixture?.close();
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }
}
