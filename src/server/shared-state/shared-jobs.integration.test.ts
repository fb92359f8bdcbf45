import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queuedJob, type JobRecord } from '../jobs/job-records.ts';
import type { JobStore } from '../jobs/job-store.ts';
import { startTestRedis, type TestRedis } from '../../test-support/redis-server.ts';
import { createRedisConnection, type RedisConnection } from './redis-connection.ts';
import { sharedJobStore } from './shared-jobs.ts';

// The replicas' job store against a real Redis: the same request gives the same job, one
// runner at a time holds a job, a runner that lost its lease writes nothing more, a takeover
// cuts the rows back to the pages the record counts, and a result is read back exactly from
// any byte range, across the elements it is kept in.

let redis: TestRedis;
let connection: RedisConnection;
let prefixes = 0;
const quiet = { info() {}, warn() {} };

beforeAll(async () => {
  redis = await startTestRedis();
  connection = createRedisConnection({ url: redis.url, commandTimeoutMs: 2000, logger: quiet });
  await connection.settled();
});
afterAll(async () => {
  await connection.close();
  await redis.stop();
});

const store = (): JobStore =>
  sharedJobStore({
    connection,
    keyPrefix: `jobs-test${++prefixes}:`,
    scope: 'scope',
    resultTtlMs: 60_000,
  });

const record = (id: string, key = `key-${id}`): JobRecord =>
  queuedJob(
    {
      id,
      key,
      client: 'client',
      request: { list: 'playlist', id: 'PL1', kind: 'export', format: 'csv' },
    },
    1,
  );

/** Notes a page of `text` on `job`, as the runner does. */
function page(job: JobRecord, text: string, next: string | null): JobRecord {
  return {
    ...job,
    pages: job.pages + 1,
    next,
    bytes: job.bytes + Buffer.byteLength(text),
  };
}

async function readAll(stream: ReadableStream<Uint8Array>): Promise<string> {
  return Buffer.from(await new Response(stream).arrayBuffer()).toString('utf8');
}

describe('the replicas’ job store', () => {
  it('gives the same job for the same key until it fails or is cancelled', async () => {
    const jobs = store();
    const first = await jobs.create(record('a', 'k'));
    const again = await jobs.create(record('b', 'k'));
    expect([first.created, again.created, again.record.id]).toEqual([true, false, 'a']);
    expect(await jobs.unfinished()).toEqual(['a']);
    const cancelled = await jobs.cancel('a', 5);
    expect(cancelled).toMatchObject({ state: 'cancelled', updatedAt: 5 });
    expect(await jobs.unfinished()).toEqual([]);
    expect((await jobs.create(record('c', 'k'))).created).toBe(true);
  });

  it('lets one runner hold a job, and refuses the writes of one that lost it', async () => {
    const jobs = store();
    const job = (await jobs.create(record('a'))).record;
    expect(await jobs.claim('a', 'one', 5_000)).toBe(true);
    expect(await jobs.claim('a', 'two', 5_000)).toBe(false);
    expect(await jobs.resume('one', { ...job, state: 'running' })).toBe(true);
    const first = page(job, 'head\nrow 1\n', 'c1');
    expect(await jobs.commitPage('one', first, 'head\nrow 1\n')).toBe(true);
    // The lease lapses (a runner paused too long) and another takes the job over.
    expect(await jobs.claim('a', 'one', 1)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(await jobs.claim('a', 'two', 5_000)).toBe(true);
    expect(await jobs.renew('a', 'one', 5_000)).toBe(false);
    expect(await jobs.commitPage('one', page(first, 'stale\n', 'x'), 'stale\n')).toBe(false);
    expect(await jobs.save('one', { ...first, state: 'failed' })).toBe(false);
    expect(await jobs.get('a')).toMatchObject({ pages: 1, next: 'c1', state: 'queued' });
    expect([...(await collect(jobs.partLines('a')))]).toEqual(['head', 'row 1']);
  });

  it('cuts back to the pages the record counts when a job is taken up again', async () => {
    const jobs = store();
    const job = (await jobs.create(record('a'))).record;
    await jobs.claim('a', 'one', 5_000);
    const one = page(job, 'h\n1\n', 'c1');
    await jobs.commitPage('one', one, 'h\n1\n');
    const two = page(one, '2\n', 'c2');
    await jobs.commitPage('one', two, '2\n');
    // Taken up as of the first page only (as if the second had not been noted).
    await jobs.release('a', 'one');
    await jobs.claim('a', 'two', 5_000);
    expect(await jobs.resume('two', one)).toBe(true);
    expect([...(await collect(jobs.partLines('a')))]).toEqual(['h', '1']);
    const again = page(one, '2\n', 'c2');
    await jobs.commitPage('two', again, '2\n');
    const three = page(again, '3\n', null);
    await jobs.commitPage('two', three, '3\n');
    const done = { ...three, state: 'done' as const, expiresAt: Date.now() + 60_000 };
    expect(await jobs.finish('two', done, { tail: 'end\n' })).toBe(true);
    expect(await jobs.resultSize('a')).toBe(Buffer.byteLength('h\n1\n2\n3\nend\n'));
    expect(await jobs.unfinished()).toEqual([]);
    expect(await jobs.get('a')).toMatchObject({ state: 'done', bytes: 12 });
    // Finished, it takes no more writes, even from its runner.
    expect(await jobs.commitPage('two', three, 'late\n')).toBe(false);
  });

  it('a failed job leaves the open jobs, drops its rows and lease, and lapses', async () => {
    const jobs = store();
    const job = (await jobs.create(record('a'))).record;
    expect(await jobs.claim('a', 'one', 5_000)).toBe(true);
    expect(await jobs.commitPage('one', page(job, 'row\n', 'c1'), 'row\n')).toBe(true);
    const failed = { ...job, state: 'failed' as const, expiresAt: Date.now() + 60_000 };
    expect(await jobs.save('one', failed)).toBe(true);
    expect(await jobs.unfinished()).toEqual([]);
    expect(await jobs.get('a')).toMatchObject({ state: 'failed' });
    expect([...(await collect(jobs.partLines('a')))]).toEqual([]);
    const keys = `jobs-test${prefixes}:jobs:scope:`;
    for (const key of [`${keys}job:a`, `${keys}key:${job.key}`])
      expect(await connection.client.pttl(key)).toBeGreaterThan(50_000);
    // The lease went with it: another runner may claim the job's id at once.
    expect(await jobs.claim('a', 'two', 5_000)).toBe(true);
    // The failed job's key no longer holds: the same request makes a new job.
    expect((await jobs.create(record('b', job.key))).created).toBe(true);
  });

  it('reads a result back exactly from any range, across its elements', async () => {
    const jobs = store();
    let job = (await jobs.create(record('a'))).record;
    await jobs.claim('a', 'one', 5_000);
    let whole = '';
    for (let n = 0; n < 40; n++) {
      // Pages of different lengths, some with characters of several bytes.
      const text = `${'é'.repeat(n)}${String(n).repeat(n * 37)}\n`;
      job = page(job, text, n === 39 ? null : `c${n}`);
      await jobs.commitPage('one', job, text);
      whole += text;
    }
    await jobs.finish(
      'one',
      { ...job, state: 'done', expiresAt: Date.now() + 60_000 },
      { tail: '' },
    );
    const bytes = Buffer.from(whole);
    expect(await jobs.resultSize('a')).toBe(bytes.length);
    expect(await readAll(jobs.readResult('a', 0, bytes.length - 1))).toBe(whole);
    for (const [start, end] of [
      [0, 0],
      [1, 100],
      [777, 778],
      [5_000, 9_999],
      [bytes.length - 3, bytes.length - 1],
    ] as const) {
      const got = Buffer.from(await new Response(jobs.readResult('a', start, end)).arrayBuffer());
      expect(got.equals(bytes.subarray(start, end + 1))).toBe(true);
    }
  });

  it('keeps a summary’s document in place of its rows', async () => {
    const jobs = store();
    const job = (await jobs.create(record('a'))).record;
    await jobs.claim('a', 'one', 5_000);
    const one = page(job, '{"a":1}\n', null);
    await jobs.commitPage('one', one, '{"a":1}\n');
    const done = { ...one, state: 'done' as const, expiresAt: Date.now() + 60_000 };
    await jobs.finish('one', done, { replace: '{"count":1}\n' });
    expect(await readAll(jobs.readResult('a', 0, 11))).toBe('{"count":1}\n');
    expect(await jobs.get('a')).toMatchObject({ bytes: 12 });
  });
});

async function collect(lines: AsyncIterable<string>): Promise<string[]> {
  const all: string[] = [];
  for await (const line of lines) all.push(line);
  return all;
}
