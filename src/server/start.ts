import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

// `npm start`: the built server (vite.config.ts's server build, under dist/.server), built first
// when the build is missing or older than anything it is built from, so that `npm install && npm
// start` works on a fresh clone and after a pull, and a start on a built tree costs no build.
// Then this process becomes the server (process.execve): one process, whose signals, exit status
// and PID are the server's own, run with the Node flags this script was given (package.json).

export const BUILT_SERVER = 'dist/.server/server/index.js';

/**
 * The environment the server runs in, beside the caller's (which wins). glibc's malloc gives
 * each allocating thread an arena of its own, and memory freed in one is not handed back while
 * any of it is in use, so libvips' threads (cards, thumbnails) and Node's own left a loaded
 * process markedly larger at its peak than with two arenas. Ignored elsewhere than glibc.
 */
export const SERVER_ENV: Readonly<Record<string, string>> = { MALLOC_ARENA_MAX: '2' };

/** What the build reads: a file changed here since the build means the build is stale. */
const SOURCES = [
  'src',
  'public',
  'index.html',
  'vite.config.ts',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
];

/** The newest modification time under `path` (tests left out: the build never reads them). */
function newest(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return /\.test\.tsx?$/.test(path) ? 0 : stat.mtimeMs;
  let latest = 0;
  for (const entry of readdirSync(path)) latest = Math.max(latest, newest(join(path, entry)));
  return latest;
}

/** Why the server must be built first, or null when its build is current. */
export function staleBuild(root = '.'): string | null {
  const built = join(root, BUILT_SERVER);
  if (!existsSync(built)) return 'no build yet';
  const builtAt = statSync(built).mtimeMs;
  const changed = SOURCES.find((source) => newest(join(root, source)) > builtAt);
  return changed === undefined ? null : `${changed} changed since the last build`;
}

/** Vite is a development dependency: an install with --omit=dev runs the build it was given. */
function canBuild(): boolean {
  try {
    createRequire(import.meta.url).resolve('vite');
    return true;
  } catch {
    return false;
  }
}

if (import.meta.main) {
  const stale = staleBuild();
  if (stale !== null && canBuild()) {
    console.error(`npm start: building first (${stale})`);
    execFileSync('npm', ['run', 'build'], { stdio: 'inherit' });
  } else if (stale !== null && existsSync(BUILT_SERVER)) {
    console.error(
      `npm start: ${stale}, and there is no Vite to build with; running the build there is`,
    );
  } else if (stale !== null) {
    console.error(
      'npm start: there is no build, and no Vite to make one (install the dev dependencies)',
    );
    process.exit(1);
  }
  const flags = process.argv.slice(2).filter((arg) => arg.startsWith('--'));
  const args = [...flags, BUILT_SERVER];
  // The caller's environment is the server's, read by its config.ts; only defaults are added.
  // eslint-disable-next-line no-restricted-properties
  const env = { ...SERVER_ENV, ...process.env };
  if (process.execve) process.execve(process.execPath, [process.execPath, ...args], env);
  else {
    // Where there is no execve (Windows), the server is a child, and its stop is passed on.
    const child = spawn(process.execPath, args, { stdio: 'inherit', env });
    for (const signal of ['SIGINT', 'SIGTERM'] as const)
      process.on(signal, () => child.kill(signal));
    child.on('exit', (code) => process.exit(code ?? 1));
  }
}
