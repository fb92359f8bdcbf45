import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE, HEADLESS_SHELL_EXECUTABLE } from './e2e/chromium.ts';
import { BUILT_SERVER } from './src/server/start.ts';

// Browser journeys in Debian's Chromium against the real explorer server with its
// embedded catalogue: no request mocking. Faults are switched at run time on the catalogue
// (`/__faults`), so the fault journeys get a server of their own and run one at a time,
// while the others run in parallel on the first server. The jobs' journeys get one too, whose
// quota window is ten seconds, so that a job of 10,000 pages waits for quota and ends within
// the test. `npm test` builds dist/ first.

const CI = !!process.env.CI;
const PORT = Number(process.env.E2E_PORT ?? 4173);
const FAULT_PORT = PORT + 1;
const JOBS_PORT = PORT + 2;
const CATALOGUE_PORT = PORT + 10;
const FAULT_CATALOGUE_PORT = PORT + 11;
const JOBS_CATALOGUE_PORT = PORT + 12;

export interface E2EOptions {
  /** The embedded catalogue of the server under test, for its `/__faults` switch. */
  cataloguePort: number;
}

function server(port: number, cataloguePort: number, env: Record<string, string> = {}) {
  return {
    // The built server, as `npm start` runs it (the build is made before the browser tests).
    command: `node --enable-source-maps ${BUILT_SERVER}`,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: !CI,
    timeout: 60_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      CATALOGUE_FAULT_CONTROL: 'true',
      EMBEDDED_CATALOGUE_PORT: String(cataloguePort),
      // Every test comes from 127.0.0.1; the per-client limits are for real visitors.
      CLIENT_RATE_LIMIT_BURST: '100000',
      CLIENT_RATE_LIMIT_PER_SECOND: '100000',
      CLIENT_SHARE_OF_WINDOW: '1',
      // The journeys read the server's own markup (before hydration, or with no script): a
      // cold page on a busy machine could miss a person's 50 ms wait and go out loading. That
      // wait has its test (app-pages.integration.test.ts) and bench 5's deep-link rows.
      FIRST_PAINT_WAIT_MS: '1000',
      RENDER_RATE_LIMIT_BURST: '100000',
      RENDER_RATE_LIMIT_PER_SECOND: '100000',
      // The journeys hold what a reader's own requests do (what is cached, what a fault hits);
      // warming would fill the cache behind them at its own pace, and take their faults.
      // Warming has tests of its own (src/server/warming/) and benchmark rows (benches 7, 9).
      CHAIN_WARM_SHARE: '0',
      // Each run's servers start from a fresh hour: the journeys spend quota as they like.
      STATE_DIR: '',
      ...env,
    },
  };
}

export default defineConfig<E2EOptions>({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
  // One worker more than the cores: the jobs' journeys spend most of their time waiting for
  // quota windows, and a third worker keeps both cores drawing meanwhile.
  workers: 3,
  forbidOnly: CI,
  // A test that passes only on a second try is a defect to fix, not to retry.
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: CI ? [['list'], ['html', { open: 'never' }]] : 'list',
  use: {
    // Recording a trace of every test costs as much CPU as the tests; `--trace on` records one.
    trace: 'off',
    viewport: { width: 1280, height: 800 },
    launchOptions: { executablePath: HEADLESS_SHELL_EXECUTABLE, args: CHROMIUM_ARGS },
  },
  projects: [
    {
      // One file, its journeys one after the other: a job spends the server's window, which a
      // second journey's job would share.
      name: 'jobs',
      testMatch: /(^|\/)jobs\.spec\.ts$/,
      fullyParallel: false,
      use: {
        baseURL: `http://127.0.0.1:${JOBS_PORT}`,
        cataloguePort: JOBS_CATALOGUE_PORT,
        // A job tells the reader it has ended with a notification, which the headless shell
        // does not have.
        launchOptions: { executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS },
      },
    },
    {
      // One file, so one worker: switched faults are the whole server's, and two files of
      // this project would run side by side, each meeting the other's switches.
      name: 'faults',
      testMatch: /(^|\/)faults\.spec\.ts$/,
      fullyParallel: false,
      use: { baseURL: `http://127.0.0.1:${FAULT_PORT}`, cataloguePort: FAULT_CATALOGUE_PORT },
    },
    {
      name: 'chromium',
      testIgnore: /(^|\/)(faults|jobs)\.spec\.ts$/,
      use: { baseURL: `http://127.0.0.1:${PORT}`, cataloguePort: CATALOGUE_PORT },
    },
  ],
  webServer: [
    server(PORT, CATALOGUE_PORT),
    // No page cache, so every lookup meets the switched faults, however often a test runs
    // against this server (a retry, --repeat-each) and whichever lists the others loaded.
    server(FAULT_PORT, FAULT_CATALOGUE_PORT, { CACHE_MAX_BYTES: '0' }),
    // Jobs (docs/jobs.md): a window of 30 lookups in 2 s, a fifth kept for readers, so a job
    // reads 24 pages a window and then waits for the next: the 20,000-item playlist's 200 pages
    // take about 17 s, long enough to follow it across pages. Each journey is a client of its
    // own (X-Forwarded-For, trusted here), so that a run against a server left running by the
    // last one starts a new job rather than finding that run's, finished.
    server(JOBS_PORT, JOBS_CATALOGUE_PORT, {
      CATALOGUE_QUOTA: '30',
      CATALOGUE_QUOTA_WINDOW: '2s',
      JOB_READER_RESERVE: '0.2',
      TRUST_PROXY: 'true',
    }),
  ],
});
