import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_IDS } from '../../catalogue/demo-fixtures.ts';
import { startExplorerFixture, type ExplorerFixture } from '../../test-support/explorer-fixture.ts';
import {
  json,
  pagesFrom,
  playlistInfo,
  playlistItem,
  startTestUpstream,
  type TestUpstream,
} from '../../test-support/test-upstream.ts';
import { LOCK_FILE, PID_FILE } from '../disk/state-dir-lock.ts';
import { STATE_FILE } from './state-file.ts';
import { STRESS_RUNS } from '../../test-support/stress.ts';

// STATE_DIR across restarts, as an operator meets it: `node src/server/index.ts` killed outright
// (SIGKILL, as a crash or an impatient orchestrator would) and started again on the same folder,
// in front of an upstream that counts the calls it gets: the hour's spending, and the pages.
// Then what the folder is true of (one upstream and key: another starts clean), and whose it is
// (one process: a second is refused, and nothing live is ever moved aside).

let fixture: ExplorerFixture;
/** A second upstream, of made-up pages, that takes any key: told apart from the fixture's. */
let other: TestUpstream;
let stateDir: string;

beforeAll(async () => {
  [fixture, other] = await Promise.all([startExplorerFixture(), startTestUpstream()]);
});
afterAll(() => Promise.all([fixture.close(), other.close()]));
afterEach(async () => {
  await fixture.reset();
  other.reset();
  rmSync(stateDir, { recursive: true, force: true });
});

const BUDGET = 50;

const env = () => ({
  STATE_DIR: stateDir,
  CATALOGUE_QUOTA: String(BUDGET),
  CLIENT_RATE_LIMIT_BURST: '1000',
  CLIENT_RATE_LIMIT_PER_SECOND: '1000',
  // One client spends the whole hour here: its share is the hour.
  CLIENT_SHARE_OF_WINDOW: '1',
});

/** Follows the 5,000-video playlist's chain for `pages` pages, each a lookup the cache lacks. */
async function readPages(url: string, pages: number): Promise<void> {
  let continuation: string | null = null;
  for (let page = 0; page < pages; page++) {
    const query = new URLSearchParams({ id: FIXTURE_IDS.playlist5000 });
    if (continuation) query.set('continuation', continuation);
    const response = await fetch(`${url}/api/v1/playlist?${query}`);
    expect(response.status).toBe(200);
    ({ continuation } = (await response.json()) as { continuation: string | null });
  }
}

/** What the hour has left, as a walk's cost states it (its first page one more lookup). */
async function remaining(url: string): Promise<number> {
  const response = await fetch(`${url}/api/walk-cost/playlist/${FIXTURE_IDS.playlist100}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { quota: { remaining: number } }).quota.remaining;
}

/** A state dir whose `file` is bytes that are not a database. */
function brokenStateDir(file: string): void {
  stateDir = mkdtempSync(join(tmpdir(), 'explorer-state-'));
  writeFileSync(join(stateDir, file), 'not a database, just some bytes '.repeat(200));
}

/** `child` said it could not use `file` (`what` in its log), and put it aside for a fresh one. */
function expectMovedAside(child: ReturnType<ExplorerFixture['spawn']>, file: string, what: string) {
  expect(child.stdout()).toContain(`${what} cannot be used`);
  expect(readdirSync(stateDir).some((name) => name.startsWith(`${file}.broken-`))).toBe(true);
  expect(existsSync(join(stateDir, file))).toBe(true);
}

/** Stops `child` as an orchestrator would, and waits for it to go. */
async function stop(child: ReturnType<ExplorerFixture['spawn']>): Promise<void> {
  child.child.kill('SIGTERM');
  await child.exited;
}

/** Stops `child` at once, as a crash would; a request first, so that what it answered is written. */
async function crash(child: ReturnType<ExplorerFixture['spawn']>, url: string): Promise<void> {
  // The pages' writes follow each answer in the same turn of the event loop: this answer
  // comes after them.
  expect((await fetch(`${url}/healthz`)).status).toBe(200);
  child.child.kill('SIGKILL');
  await child.exited;
}

describe('the hour kept on disk', () => {
  it('spend 12 lookups, SIGKILL the server, start it again: the hour still counts them', async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'explorer-state-'));
    const first = fixture.spawn(env());
    const before = await first.listening();
    await readPages(before, 12);
    expect(fixture.upstream.hits()).toBe(12);
    await crash(first, before);

    const again = fixture.spawn(env());
    const url = await again.listening();
    expect(await remaining(url)).toBe(BUDGET - 12 - 1);
    // And it holds: the rest of the hour (the first 12 pages come from those kept on disk,
    // free), then the explorer's own 429, with no call made.
    await readPages(url, 12 + BUDGET - 13);
    const past = await fetch(`${url}/api/v1/channel-videos?id=${FIXTURE_IDS.smallChannel}`);
    expect(past.status).toBe(429);
    expect(fixture.upstream.hits()).toBe(BUDGET);
    await stop(again);
  });

  it('a state file that is not a database is moved aside, said so, and the server serves', async () => {
    brokenStateDir(STATE_FILE);
    const child = fixture.spawn(env());
    const url = await child.listening();
    const lookup = await fetch(`${url}/api/v1/playlist?id=${FIXTURE_IDS.playlist100}`);
    expect(lookup.status).toBe(200);
    expectMovedAside(child, STATE_FILE, 'the state file');
    // A fresh file took its place, and keeps the hour and the pages from now on: after a
    // restart, the lookup made before counts (the cost's first page is that page, kept on
    // disk), and the page is served without another upstream call.
    await crash(child, url);
    const again = fixture.spawn(env());
    const warm = await again.listening();
    expect(await remaining(warm)).toBe(BUDGET - 1);
    expect((await fetch(`${warm}/api/v1/playlist?id=${FIXTURE_IDS.playlist100}`)).status).toBe(200);
    expect(fixture.upstream.hits()).toBe(1);
    await stop(again);
  });
});

describe('the pages kept on disk', () => {
  it('a page read before a SIGKILL is served after the restart without an upstream call', async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'explorer-state-'));
    const first = fixture.spawn(env());
    const url = await first.listening();
    await readPages(url, 5);
    expect(fixture.upstream.hits()).toBe(5);
    // One database for the window, the pages and the jobs, beside the lock.
    expect(
      readdirSync(stateDir)
        .filter((name) => /\.(sqlite|lock)$/.test(name))
        .sort(),
    ).toEqual([LOCK_FILE, STATE_FILE].sort());
    await crash(first, url);

    const again = fixture.spawn(env());
    const warm = await again.listening();
    await readPages(warm, 5);
    expect(fixture.upstream.hits()).toBe(5);
    // The sixth page was never read: that one is asked for.
    await readPages(warm, 6);
    expect(fixture.upstream.hits()).toBe(6);
    await stop(again);
  });
});

/** The upstream's "slow down" (spec §2.3): every call held for ten minutes. */
const SLOW_DOWN = json(
  429,
  { title: 'Too Many Requests', status: 429, code: 'rate_limited' },
  { 'Retry-After': '600' },
);

/** An explorer's variables for `other`, with `key` as its API key. */
const otherEnv = (key: string) => ({
  ...env(),
  CATALOGUE_BASE_URL: other.url,
  CATALOGUE_API_KEY: key,
  CATALOGUE_API_SECRET: 'a-secret',
});

/** The embedded catalogue (no CATALOGUE_BASE_URL), as `npm start` runs it. */
const embeddedEnv = () => ({ ...env(), CATALOGUE_BASE_URL: '' });

/** The first page of the 100-video playlist: its status, problem code and title. */
async function firstPage(url: string) {
  const response = await fetch(`${url}/api/v1/playlist?id=${FIXTURE_IDS.playlist100}`);
  const body = (await response.json()) as { code?: string; info?: { title: string } };
  return { status: response.status, code: body.code, title: body.info?.title };
}

/** Starts an explorer with `variables`, asks for the first page, stops it: what it answered. */
async function askOnce(variables: Record<string, string>) {
  const child = fixture.spawn(variables);
  const answer = await firstPage(await child.listening());
  await stop(child);
  return answer;
}

const asides = () => readdirSync(stateDir).filter((name) => name.includes('.broken-'));

describe("the state is one upstream's and one key's", () => {
  it("an upstream's 429 is not applied to the embedded catalogue on the same STATE_DIR", async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'explorer-state-'));
    other.setFallback(SLOW_DOWN);
    expect(await askOnce(otherEnv('key-one'))).toMatchObject({
      status: 429,
      code: 'upstream_rate_limited',
    });
    expect(other.hits()).toBe(1);
    // The pause was kept: that upstream, restarted, still holds its calls, and makes none.
    expect(await askOnce(otherEnv('key-one'))).toMatchObject({ status: 429 });
    expect(other.hits()).toBe(1);

    expect(await askOnce(embeddedEnv())).toMatchObject({ status: 200 });
  });

  it("the same base URL with another key starts clean; the first key's pause is kept for it", async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'explorer-state-'));
    other.setFallback(SLOW_DOWN);
    expect(await askOnce(otherEnv('key-one'))).toMatchObject({ status: 429 });
    other.setFallback(
      pagesFrom(() => ({
        info: playlistInfo(FIXTURE_IDS.playlist100),
        items: [playlistItem(1)],
        continuation: null,
      })),
    );

    expect(await askOnce(otherEnv('key-two'))).toMatchObject({ status: 200 });
    expect(other.hits()).toBe(2);
    // Back to the first key: its pause again, with no call made.
    expect(await askOnce(otherEnv('key-one'))).toMatchObject({
      status: 429,
      code: 'upstream_rate_limited',
    });
    expect(other.hits()).toBe(2);
    // The files know the keys by a digest only.
    for (const name of readdirSync(stateDir, { recursive: true, encoding: 'utf8' })) {
      if (statSync(join(stateDir, name)).isDirectory()) continue;
      const bytes = readFileSync(join(stateDir, name));
      expect(bytes.includes('key-one')).toBe(false);
      expect(bytes.includes('key-two')).toBe(false);
    }
  });

  it("another upstream's pages on disk are not served; switching back serves its own", async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'explorer-state-'));
    const made = await askOnce(otherEnv('key-one'));
    expect(made).toMatchObject({ status: 200, title: playlistInfo(FIXTURE_IDS.playlist100).title });
    expect(other.hits()).toBe(1);

    // The fixture's catalogue, on the same folder: its own page, from its own upstream call.
    const real = await askOnce(env());
    expect(real.status).toBe(200);
    expect(real.title).not.toBe(made.title);
    expect(fixture.upstream.hits()).toBe(1);

    // And back: the made-up page again, from disk.
    expect(await askOnce(otherEnv('key-one'))).toEqual(made);
    expect(other.hits()).toBe(1);
  });
});

describe('one process per STATE_DIR', () => {
  /** Plenty: these tests spend lookups as fast as they can. */
  const HOUR = 1_000_000;
  const busyEnv = () => ({ ...otherEnv('key-one'), CATALOGUE_QUOTA: String(HOUR) });

  /** A playlist whose chain never ends: every page asked for is a new one, an upstream call. */
  const endless = pagesFrom((url) => {
    const at = Number(url.searchParams.get('continuation')?.slice('p'.length) ?? '1');
    return {
      ...(at === 1 ? { info: playlistInfo(url.searchParams.get('id') ?? '') } : {}),
      items: [playlistItem(at)],
      continuation: `p${at + 1}`,
    };
  });

  /** How long a refused start may take to be gone, on a loaded machine (loading the code). */
  const REFUSED_WITHIN_MS = 30_000;

  /** Whether `child` came to listen or exited (the fixture's `listening` gives up sooner). */
  async function settled(child: ReturnType<ExplorerFixture['spawn']>) {
    for (let waited = 0; waited < REFUSED_WITHIN_MS; waited += 20) {
      if (child.stdout().includes('"explorer listening"')) return 'listening';
      if (child.child.exitCode !== null) return 'exited';
      await sleep(20);
    }
    return 'neither';
  }

  /** `child` refused to start: it exited non-zero, naming the folder and the holder's PID. */
  async function expectRefused(child: ReturnType<ExplorerFixture['spawn']>, holder: number) {
    const code = await Promise.race([child.exited, sleep(REFUSED_WITHIN_MS).then(() => 'running')]);
    if (code === 'running') child.child.kill('SIGKILL');
    expect(code, `it did not exit:\n${child.stdout()}\n${child.stderr()}`).not.toBe('running');
    expect(code).not.toBe(0);
    expect(child.stdout()).toContain(`STATE_DIR ${stateDir} is in use by another explorer`);
    expect(child.stdout()).toContain(`PID ${holder}`);
  }

  it('a second process is refused while the first spends lookups; nothing is moved aside', async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'explorer-state-'));
    other.setFallback(endless);
    const first = fixture.spawn(busyEnv());
    const url = await first.listening();
    let read = 0;
    let writing = true;
    const writer = (async () => {
      let continuation = '';
      while (writing) {
        const query = new URLSearchParams({ id: FIXTURE_IDS.playlist5000, continuation });
        const response = await fetch(`${url}/api/v1/playlist?${query}`);
        if (response.status !== 200) throw new Error(`the first answered ${response.status}`);
        ({ continuation } = (await response.json()) as { continuation: string });
        read++;
      }
    })();

    try {
      // Two at a time (a start is mostly loading code, a CPU's work); each meets the first
      // mid-write, and is gone in a few seconds.
      for (let round = 0; round < STRESS_RUNS; round++) {
        const readBefore = read;
        const seconds = Array.from({ length: 2 }, () => fixture.spawn(busyEnv()));
        for (const second of seconds) await expectRefused(second, first.child.pid!);
        expect(read).toBeGreaterThan(readBefore);
      }
    } finally {
      writing = false;
      await writer;
    }
    expect(asides()).toEqual([]);

    // The first kept the hour whole: every call it made is still counted after a crash.
    const before = await remaining(url);
    expect(before).toBe(HOUR - other.hits());
    await crash(first, url);
    const again = fixture.spawn(busyEnv());
    expect(await remaining(await again.listening())).toBe(before);
    await stop(again);
    expect(asides()).toEqual([]);
  }, 240_000);

  it('two processes started at the same moment: one serves, the other is refused naming it', async () => {
    for (let run = 0; run < STRESS_RUNS; run++) {
      stateDir = mkdtempSync(join(tmpdir(), 'explorer-state-'));
      const pair = [fixture.spawn(busyEnv()), fixture.spawn(busyEnv())];
      try {
        const outcomes = await Promise.all(pair.map(settled));
        expect([...outcomes].sort()).toEqual(['exited', 'listening']);
        const serving = pair[outcomes.indexOf('listening')]!;
        await expectRefused(pair[outcomes.indexOf('exited')]!, serving.child.pid!);
        await stop(serving);
      } finally {
        for (const child of pair) child.child.kill('SIGKILL');
      }
      expect(asides()).toEqual([]);
      rmSync(stateDir, { recursive: true, force: true });
    }
  }, 240_000);

  it('the lock of a SIGKILLed process does not stop the next start', async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'explorer-state-'));
    const first = fixture.spawn(busyEnv());
    const url = await first.listening();
    expect((await firstPage(url)).status).toBe(200);
    await crash(first, url);
    // What it left behind names a process that is gone.
    expect(readFileSync(join(stateDir, PID_FILE), 'utf8').trim()).toBe(String(first.child.pid));

    const again = fixture.spawn(busyEnv());
    const next = await again.listening();
    // Its hour, too: the page it read (the cost's first page, kept on disk).
    expect(await remaining(next)).toBe(HOUR - 1);
    expect(readFileSync(join(stateDir, PID_FILE), 'utf8').trim()).toBe(String(again.child.pid));
    await stop(again);
  });
});
