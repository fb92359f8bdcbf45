import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_IDS } from '../../catalogue/demo-fixtures.ts';
import { startExplorerFixture, type ExplorerFixture } from '../../test-support/explorer-fixture.ts';
import { PAGES_FILE } from '../pages/disk-pages.ts';
import { QUOTA_JOURNAL_FILE } from '../quota/quota-journal.ts';

// STATE_DIR across restarts, as an operator meets it: `node src/server/index.ts` killed outright
// (SIGKILL, as a crash or an impatient orchestrator would) and started again on the same folder,
// in front of an upstream that counts the calls it gets: the hour's spending, and the pages.

let fixture: ExplorerFixture;
let stateDir: string;

beforeAll(async () => {
  fixture = await startExplorerFixture();
});
afterAll(() => fixture.close());
afterEach(async () => {
  await fixture.reset();
  rmSync(stateDir, { recursive: true, force: true });
});

const BUDGET = 50;

const env = () => ({
  STATE_DIR: stateDir,
  CATALOGUE_QUOTA_PER_HOUR: String(BUDGET),
  CLIENT_RATE_LIMIT_BURST: '1000',
  CLIENT_RATE_LIMIT_PER_SECOND: '1000',
  // One client spends the whole hour here: its share is the hour.
  CLIENT_SHARE_OF_HOUR: '1',
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

  it('a journal that is not a database is moved aside, said so, and the server serves', async () => {
    brokenStateDir(QUOTA_JOURNAL_FILE);
    const child = fixture.spawn(env());
    const url = await child.listening();
    const lookup = await fetch(`${url}/api/v1/playlist?id=${FIXTURE_IDS.playlist100}`);
    expect(lookup.status).toBe(200);
    // A fresh journal took its place, and keeps the hour from now on: after a restart, the
    // lookup made before (the cost's first page is that page, kept on disk).
    expectMovedAside(child, QUOTA_JOURNAL_FILE, 'the quota journal');
    await crash(child, url);
    const again = fixture.spawn(env());
    expect(await remaining(await again.listening())).toBe(BUDGET - 1);
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

  it('a page store that is not a database is moved aside, said so, and the server serves', async () => {
    brokenStateDir(PAGES_FILE);
    const child = fixture.spawn(env());
    const url = await child.listening();
    await readPages(url, 2);
    expect(fixture.upstream.hits()).toBe(2);
    expectMovedAside(child, PAGES_FILE, 'the page store');
    // The fresh store in its place keeps pages from now on.
    await crash(child, url);
    const again = fixture.spawn(env());
    await readPages(await again.listening(), 2);
    expect(fixture.upstream.hits()).toBe(2);
    await stop(again);
  });
});
