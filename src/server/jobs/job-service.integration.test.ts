import { mkdtempSync, readFileSync, rmSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { FIXTURE_IDS } from '../../catalogue/demo-fixtures.ts';
import type { Job } from '../../shared/jobs.ts';
import type { ChannelVideo } from '../../shared/catalogue-schema.ts';
import type { ListItem, ListSummary, NotableItem } from '../../shared/whole-list.ts';
import { openStateDatabase } from '../disk/state-database.ts';
import { createClientShares } from '../quota/client-shares.ts';
import { createQuotaGuard } from '../quota/quota-guard.ts';
import { startExplorerFixture, type ExplorerFixture } from '../../test-support/explorer-fixture.ts';
import {
  readWholeList,
  realPageSource,
  type RealPageSource,
} from '../../test-support/real-page-source.ts';
import { jobFiles } from './job-files.ts';
import { createJobPacer } from './job-pacer.ts';
import { JOB_RECORDS_SCHEMA, sqliteJobRecords } from './job-records.ts';
import { createJobService, type JobService } from './job-service.ts';
import { localJobStore } from './job-store.ts';

// Jobs over the real embedded catalogue (over HTTP, its calls counted by the fixture's proxy),
// with their records in an SQLite state file and their rows on disk: a whole list exported
// exactly, a job stopped part way and taken up by the next "process" from its last page, a job
// paced by a small window that never takes the readers' part, the same request given the same
// job, a cancel, a summary.

let fixture: ExplorerFixture;
let source: RealPageSource;
let dir: string;
const quiet = { warn() {}, error() {} };

beforeAll(async () => {
  fixture = await startExplorerFixture();
  source = realPageSource(fixture.upstreamEnv.CATALOGUE_BASE_URL!, {
    apiKey: fixture.apiKey,
    apiSecret: fixture.apiSecret,
    cacheBytes: 0,
  });
});
afterAll(async () => {
  await source.close();
  await fixture.close();
});
afterEach(async () => {
  await fixture.reset();
  rmSync(dir, { recursive: true, force: true });
});

/** A clock that sleeping moves on, so that a window's wait takes no real time. */
function fakeTime() {
  let at = Date.UTC(2026, 10, 27, 12);
  return {
    now: () => at,
    sleep: async (ms: number, signal: AbortSignal) => {
      if (!signal.aborted) at += ms;
      await new Promise((resolve) => setImmediate(resolve));
    },
  };
}

/** A "process": its job service over the state folder, with a quota of `budget` a window. */
function processOn(
  stateDir: string,
  {
    budget = 100_000,
    share = undefined as number | undefined,
    readerReserve = 0.2,
    time = fakeTime(),
  } = {},
) {
  const db = openStateDatabase(
    join(stateDir, 'jobs.sqlite'),
    JOB_RECORDS_SCHEMA,
    { name: 'jobs', without: '' },
    quiet,
  )!;
  // A window of 10 s, as the tests and benches set CATALOGUE_QUOTA_WINDOW.
  const quota = createQuotaGuard({ budget, windowSeconds: 10, readerReserve, now: time.now });
  const perClient = share ?? budget;
  const shares = createClientShares({ perClient, windowSeconds: 10, now: time.now });
  let leastShareLeft = perClient;
  let mostUsed = 0;
  /** Every state a job was written in, with its pages then: states that fake time rushes by. */
  const written: Array<{ state: string; pages: number; waitingUntil: number | null; at: number }> =
    [];
  const stored = sqliteJobRecords(db, 'scope');
  const records: typeof stored = {
    ...stored,
    put(record) {
      written.push({
        state: record.state,
        pages: record.pages,
        waitingUntil: record.waitingUntil,
        at: record.updatedAt,
      });
      stored.put(record);
    },
  };
  const pacer = createJobPacer({ quota, shares, readerReserve });
  const service = createJobService({
    pageSource: source.pageSource,
    pacer: {
      async take(client) {
        const answer = await pacer.take(client);
        mostUsed = Math.max(mostUsed, quota.stats().usedLastHour);
        leastShareLeft = Math.min(leastShareLeft, shares.room(client));
        return answer;
      },
    },
    store: localJobStore(records, jobFiles(join(stateDir, 'jobs'))),
    resultTtlMs: 3_600_000,
    atOnce: 2,
    leaseMs: 15_000,
    now: time.now,
    sleep: time.sleep,
  });
  return {
    service,
    quota,
    shares,
    mostUsed: () => mostUsed,
    leastShareLeft: () => leastShareLeft,
    written,
    async close() {
      await service.stop();
      db.close();
    },
  };
}

/** The job once `done` says so, read as often as vi.waitFor asks. */
const until = (service: JobService, id: string, done: (job: Job) => boolean, ms = 60_000) =>
  vi.waitFor(
    async () => {
      const job = (await service.get(id))!;
      if (!done(job)) throw new Error(`job still ${job.state}: ${JSON.stringify(job.progress)}`);
      return job;
    },
    { timeout: ms, interval: 20 },
  );

/** Client A's export of the 5,000-item playlist, once done. */
async function playlistExported(service: JobService): Promise<Job> {
  const { job } = await service.create(
    { list: 'playlist', id: FIXTURE_IDS.playlist5000, kind: 'export' },
    'client-a',
  );
  return until(service, job.id, (j) => j.state === 'done');
}

const resultOf = (stateDir: string, job: Job) =>
  readFileSync(join(stateDir, 'jobs', `${job.id}.result`), 'utf8');

/** The rows of a CSV export: its header's columns, and the positions in order. */
function positions(csv: string): number[] {
  const rows = parse(csv, { columns: true }) as Array<Record<string, string>>;
  return rows.map((row) => Number(row.index));
}

describe('a whole-list job', () => {
  it('exports the 5,000-item playlist to CSV exactly, each page read once', async () => {
    dir = mkdtempSync(join(tmpdir(), 'jobs-'));
    const process = processOn(dir);
    const { job, created } = await process.service.create(
      { list: 'playlist', id: FIXTURE_IDS.playlist5000, kind: 'export', format: 'csv' },
      'client-a',
    );
    expect(created).toBe(true);
    expect(job.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const done = await until(process.service, job.id, (j) => j.state === 'done');
    expect(done.progress).toMatchObject({ pages: 50, items: 5000, lookups: 50, totalItems: 5000 });
    expect(done.result).toMatchObject({ href: `/api/jobs/${job.id}/result`, items: 5000 });
    const csv = resultOf(dir, done);
    expect(done.result!.bytes).toBe(Buffer.byteLength(csv));
    expect(positions(csv)).toEqual(Array.from({ length: 5000 }, (_, i) => i + 1));
    expect(fixture.upstream.hits()).toBe(50);
    await process.close();
  });

  it('stopped part way (a page written but not noted), the next process goes on from the last page noted', async () => {
    dir = mkdtempSync(join(tmpdir(), 'jobs-'));
    const first = processOn(dir);
    const { job } = await first.service.create(
      { list: 'playlist', id: FIXTURE_IDS.playlist5000, kind: 'export', format: 'csv' },
      'client-a',
    );
    const stoppedAt = (await until(first.service, job.id, (j) => j.progress.pages >= 20)).progress
      .pages;
    await first.close();
    // As if the process died between writing a page's rows and noting it.
    appendFileSync(join(dir, 'jobs', `${job.id}.part`), '"half a page",\r\n');
    const second = processOn(dir);
    const done = await until(second.service, job.id, (j) => j.state === 'done');
    expect(positions(resultOf(dir, done))).toEqual(Array.from({ length: 5000 }, (_, i) => i + 1));
    // Each page once, but the one that may have been in flight at the stop.
    expect(fixture.upstream.hits()).toBeLessThanOrEqual(51);
    expect(stoppedAt).toBeGreaterThanOrEqual(20);
    await second.close();
  });

  it('waits for the window when the jobs’ part is spent, and never takes the readers’ part', async () => {
    dir = mkdtempSync(join(tmpdir(), 'jobs-'));
    // 30 lookups a window, a fifth kept for readers: a job spends 24 a window, then waits.
    const process = processOn(dir, { budget: 30, readerReserve: 0.2 });
    const { job } = await process.service.create(
      { list: 'playlist', id: FIXTURE_IDS.playlist5000, kind: 'load-all' },
      'client-a',
    );
    const done = await until(process.service, job.id, (j) => j.state === 'done');
    // It waited twice, each time with the jobs' 24 lookups of the window spent, until the
    // 10 s window slid past its first lookups: 50 pages take three windows, no less.
    const waits = process.written.filter((w) => w.state === 'waiting');
    expect(waits.map((w) => w.pages)).toEqual([24, 48]);
    for (const wait of waits) expect(wait.waitingUntil! - wait.at).toBeGreaterThanOrEqual(1_000);
    const took = Date.parse(done.updatedAt) - Date.parse(done.createdAt);
    expect(took).toBeGreaterThanOrEqual(18_000);
    expect(done.progress.items).toBe(5000);
    expect(process.mostUsed()).toBeLessThanOrEqual(24);
    const items = JSON.parse(resultOf(dir, done)) as ListItem[];
    expect(items).toHaveLength(5000);
    await process.close();
  });

  it('leaves the reader’s part of the client’s own share, so the person who started it can still read', async () => {
    dir = mkdtempSync(join(tmpdir(), 'jobs-'));
    // A share of 10 lookups a window, a fifth kept for reading: a job takes 8 a window.
    const process = processOn(dir, { budget: 1000, share: 10, readerReserve: 0.2 });
    const done = await playlistExported(process.service);
    expect(done.progress.pages).toBe(50);
    expect(process.leastShareLeft()).toBeGreaterThanOrEqual(2);
    await process.close();
  });

  it('past its share, a lone client’s job goes on at the window’s pace', async () => {
    dir = mkdtempSync(join(tmpdir(), 'jobs-'));
    // A share of 10 lookups a window of 100, whose jobs' part is 80: the 50 pages fit in one
    // window, where the share alone would take seven.
    const process = processOn(dir, { budget: 100, share: 10, readerReserve: 0.2 });
    const done = await playlistExported(process.service);
    expect(done.progress.pages).toBe(50);
    expect(process.written.filter((w) => w.state === 'waiting')).toEqual([]);
    // A second client then gets its whole share at once.
    for (let n = 0; n < 10; n++) {
      expect(process.shares.take('client-b')).toEqual({ ok: true });
      expect(process.quota.tryAcquire()).toEqual({ ok: true });
    }
    await process.close();
  });

  it('past its share, a job leaves every other client of the window what it may still spend', async () => {
    dir = mkdtempSync(join(tmpdir(), 'jobs-'));
    // 40 lookups a window, its jobs' part 32; shares of 10. Client B has read 3 pages, so 7
    // more are B's, and 2 are kept of A's own share for reading: A's job stops at 40 - 9 - 3.
    const process = processOn(dir, { budget: 40, share: 10, readerReserve: 0.2 });
    for (let n = 0; n < 3; n++) {
      expect(process.shares.take('client-b')).toEqual({ ok: true });
      expect(process.quota.tryAcquire()).toEqual({ ok: true });
    }
    const done = await playlistExported(process.service);
    expect(done.progress.pages).toBe(50);
    const firstWait = process.written.find((w) => w.state === 'waiting');
    expect(firstWait?.pages).toBe(28);
    await process.close();
  });

  it('gives the same job for the same request and client, another for another client; cancels', async () => {
    dir = mkdtempSync(join(tmpdir(), 'jobs-'));
    const process = processOn(dir, { budget: 10 });
    const request = {
      list: 'playlist',
      id: FIXTURE_IDS.playlist5000,
      kind: 'export',
      format: 'json',
    } as const;
    const a = await process.service.create(request, 'client-a');
    const again = await process.service.create(request, 'client-a');
    const other = await process.service.create(request, 'client-b');
    expect(again).toMatchObject({ created: false, job: { id: a.job.id } });
    expect(other.job.id).not.toBe(a.job.id);
    const cancelled = (await process.service.cancel(a.job.id))!;
    expect(cancelled.state).toBe('cancelled');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await process.service.get(a.job.id))!.state).toBe('cancelled');
    // Asked for again after a cancel: a new job.
    expect((await process.service.create(request, 'client-a')).job.id).not.toBe(a.job.id);
    expect(await process.service.get('AAAAAAAAAAAAAAAAAAAAAA')).toBeUndefined();
    await process.close();
  });

  it('summarises the big channel’s 10,000 videos as the synchronous summary does', async () => {
    dir = mkdtempSync(join(tmpdir(), 'jobs-'));
    const process = processOn(dir);
    const { job } = await process.service.create(
      { list: 'channel-videos', id: FIXTURE_IDS.bigChannel, kind: 'summary' },
      'client-a',
    );
    const done = await until(process.service, job.id, (j) => j.state === 'done');
    const summary = JSON.parse(resultOf(dir, done)) as ListSummary;

    // What the summary should say, worked out here from the items themselves rather than by the
    // fold under test, so that a wrong fold cannot agree with itself.
    const { items, pages } = await readWholeList<ChannelVideo>(
      source.pageSource,
      'channel-videos',
      FIXTURE_IDS.bigChannel,
    );

    const timed = items
      .map((item, i) => ({ position: i + 1, id: item.id, title: item.title, value: item.duration }))
      .filter((item): item is NotableItem => item.value !== null);
    const seconds = timed.map((item) => item.value).sort((a, b) => a - b);
    const total = seconds.reduce((sum, value) => sum + value, 0);
    const middle = Math.floor(seconds.length / 2);
    const median =
      seconds.length % 2 === 1 ? seconds[middle]! : (seconds[middle - 1]! + seconds[middle]!) / 2;
    // Ties go to the earliest item: the first of the shortest, the first of the longest.
    const shortest = timed.find((item) => item.value === seconds[0])!;
    const longest = timed.find((item) => item.value === seconds.at(-1))!;
    // The catalogue's channel has videos with no duration and several of the shortest, so that
    // "missing" and the rule for ties are tried, not only the sums.
    expect(timed.length).toBeLessThan(items.length);
    expect(seconds[1]).toBe(seconds[0]);

    expect(summary.list).toBe('channel-videos');
    expect(summary.id).toBe(FIXTURE_IDS.bigChannel);
    expect(summary.title).toBeNull();
    expect(summary.complete).toBe(true);
    expect(summary.stoppedBy).toBeNull();
    expect(summary.pages).toBe(pages);
    expect(summary.totalItems).toBeNull();
    expect(summary.range).toBeNull();
    expect(summary.count).toBe(items.length);
    expect(summary.count).toBe(10_000);
    expect(summary.measure.kind).toBe('duration');
    expect(summary.measure.unit).toBe('seconds');
    expect(summary.measure.total).toBe(total);
    expect(summary.measure.counted).toBe(timed.length);
    expect(summary.measure.missing).toBe(items.length - timed.length);
    expect(summary.measure.average).toBeCloseTo(total / timed.length, 9);
    expect(summary.measure.median).toBe(median);
    expect(summary.measure.shortest).toEqual(shortest);
    expect(summary.measure.longest).toEqual(longest);
    // And nothing else: a field the summary gains must be worked out here too.
    expect(Object.keys(summary).sort()).toEqual(
      [
        'list',
        'id',
        'title',
        'complete',
        'stoppedBy',
        'pages',
        'totalItems',
        'range',
        'count',
        'measure',
      ].sort(),
    );
    expect(Object.keys(summary.measure).sort()).toEqual(
      [
        'kind',
        'unit',
        'total',
        'counted',
        'missing',
        'average',
        'median',
        'shortest',
        'longest',
      ].sort(),
    );
    await process.close();
  });
});
