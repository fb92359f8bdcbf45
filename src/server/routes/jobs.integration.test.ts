import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_IDS } from '../../catalogue/demo-fixtures.ts';
import type { Job } from '../../shared/jobs.ts';
import {
  startExplorerFixture,
  type ExplorerFixture,
  type ServedExplorer,
} from '../../test-support/explorer-fixture.ts';
import { postJob as post, untilJob } from '../../test-support/job-requests.ts';

// Jobs over HTTP, as a client meets them: made (and found again), read, downloaded whole and
// by byte ranges, cancelled, refused when malformed; and a job taken up again after the
// server was killed outright (SIGKILL) and started anew on the same STATE_DIR, its file exact.

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

const until = (url: string, location: string, done: (job: Job) => boolean, timeoutMs = 60_000) =>
  untilJob(url, location, done, { timeoutMs });

describe('jobs over HTTP', () => {
  let explorer: ServedExplorer;

  it('makes a job, finds it again, serves its result whole and by ranges, and cancels', async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'jobs-http-'));
    explorer = await fixture.serve({ STATE_DIR: stateDir });
    const request = {
      list: 'playlist',
      id: FIXTURE_IDS.playlist101,
      kind: 'export',
      format: 'csv',
    };
    const made = await post(explorer.url, request);
    expect(made.status).toBe(202);
    const location = made.headers.get('location')!;
    expect(location).toMatch(/^\/api\/jobs\/[A-Za-z0-9_-]{22}$/);
    const again = await post(explorer.url, request);
    expect([again.status, again.headers.get('location')]).toEqual([200, location]);

    const done = await until(explorer.url, location, (job) => job.state === 'done');
    expect(done.progress).toMatchObject({ items: 101, pages: 2, totalItems: 101 });
    const result = await fetch(explorer.url + done.result!.href);
    expect(result.status).toBe(200);
    expect(result.headers.get('content-type')).toContain('text/csv');
    expect(result.headers.get('content-disposition')).toContain('attachment');
    const csv = await result.text();
    expect(Buffer.byteLength(csv)).toBe(done.result!.bytes);
    expect((parse(csv, { columns: true }) as unknown[]).length).toBe(101);
    const etag = result.headers.get('etag')!;
    const unchanged = await fetch(explorer.url + done.result!.href, {
      headers: { 'If-None-Match': etag },
    });
    expect(unchanged.status).toBe(304);
    // A download cut short goes on from where it stopped.
    const rest = await fetch(explorer.url + done.result!.href, {
      headers: { Range: 'bytes=100-', 'If-Range': etag },
    });
    expect(rest.status).toBe(206);
    expect(rest.headers.get('content-range')).toBe(
      `bytes 100-${done.result!.bytes - 1}/${done.result!.bytes}`,
    );
    expect(await rest.text()).toBe(Buffer.from(csv).subarray(100).toString());
    const outside = await fetch(explorer.url + done.result!.href, {
      headers: { Range: `bytes=${done.result!.bytes + 10}-` },
    });
    expect(outside.status).toBe(416);

    // A long one, cancelled while it runs; its result is then none.
    const long = await post(explorer.url, {
      list: 'channel-videos',
      id: FIXTURE_IDS.hugeChannel,
      kind: 'export',
    });
    const longLocation = long.headers.get('location')!;
    const cancelled = await fetch(explorer.url + longLocation, { method: 'DELETE' });
    expect(cancelled.status).toBe(200);
    expect(((await cancelled.json()) as Job).state).toBe('cancelled');
    const none = await fetch(`${explorer.url + longLocation}/result`);
    expect(none.status).toBe(409);
    await explorer.close();
  });

  it('refuses what is not a job, an unknown job, and methods a path lacks', async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'jobs-http-'));
    explorer = await fixture.serve({ STATE_DIR: stateDir });
    const problems: Array<[Promise<Response>, number]> = [
      [post(explorer.url, { list: 'playlist', id: 'x', kind: 'export', extra: 1 }), 400],
      [post(explorer.url, { list: 'album', id: 'x', kind: 'export' }), 400],
      [
        fetch(`${explorer.url}/api/jobs`, {
          method: 'POST',
          body: '{"list"',
          headers: { 'Content-Type': 'application/json' },
        }),
        400,
      ],
      [fetch(`${explorer.url}/api/jobs`, { method: 'POST', body: 'list=playlist' }), 400],
      [post(explorer.url, { list: 'playlist', id: 'x'.repeat(5000), kind: 'export' }), 413],
      // A body sent in chunks, with no length said: read up to the limit, then refused.
      [
        fetch(`${explorer.url}/api/jobs`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: new ReadableStream({
            start(controller) {
              for (let i = 0; i < 10; i++)
                controller.enqueue(new TextEncoder().encode(' '.repeat(1024)));
              controller.close();
            },
          }),
          duplex: 'half',
        } as RequestInit),
        413,
      ],
      [fetch(`${explorer.url}/api/jobs/AAAAAAAAAAAAAAAAAAAAAA`), 404],
      [fetch(`${explorer.url}/api/jobs/not-a-job`), 404],
      [
        fetch(`${explorer.url}/api/jobs/AAAAAAAAAAAAAAAAAAAAAA`, { method: 'PUT', body: '{}' }),
        405,
      ],
      [fetch(`${explorer.url}/api/jobs`, { method: 'GET' }), 405],
      [
        fetch(`${explorer.url}/api/summary/playlist/${FIXTURE_IDS.playlist101}`, {
          method: 'POST',
        }),
        405,
      ],
    ];
    for (const [pending, status] of problems) {
      const response = await pending;
      expect(response.status, response.url).toBe(status);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
    }
    await explorer.close();
  });
});

describe('jobs while the replicas’ Redis does not answer', () => {
  it('answers 503 with a problem, and the server goes on', async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'jobs-http-'));
    // Nothing listens on loopback port 1: the connection is refused at once.
    const explorer = await fixture.serve({ REDIS_URL: 'redis://127.0.0.1:1', STATE_DIR: '' });
    const made = await post(explorer.url, {
      list: 'playlist',
      id: FIXTURE_IDS.playlist101,
      kind: 'export',
    });
    expect(made.status).toBe(503);
    expect(made.headers.get('content-type')).toContain('application/problem+json');
    expect(made.headers.get('retry-after')).toBe('5');
    expect(await made.json()).toMatchObject({ code: 'shared_state_unavailable' });
    const read = await fetch(`${explorer.url}/api/jobs/AAAAAAAAAAAAAAAAAAAAAA`);
    expect(read.status).toBe(503);
    expect((await fetch(`${explorer.url}/healthz`)).status).toBe(200);
    await explorer.close();
  });
});

describe('a job across a SIGKILL', () => {
  it('exports the 10,000-video channel exactly, taken up by the next process from its last page', async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'jobs-kill-'));
    // A small window: the job waits between windows, so the kill lands part way.
    const env = {
      STATE_DIR: stateDir,
      CATALOGUE_QUOTA: '100',
      CATALOGUE_QUOTA_WINDOW: '2s',
      CLIENT_SHARE_OF_WINDOW: '1',
    };
    const first = fixture.spawn(env);
    const url = await first.listening();
    const made = await post(url, {
      list: 'channel-videos',
      id: FIXTURE_IDS.bigChannel,
      kind: 'export',
      format: 'csv',
    });
    const location = made.headers.get('location')!;
    const part = await until(url, location, (job) => job.progress.pages >= 100);
    expect(part.state).not.toBe('done');
    first.child.kill('SIGKILL');
    await first.exited;

    const second = fixture.spawn(env);
    const again = await second.listening();
    const done = await until(again, location, (job) => job.state === 'done', 90_000);
    const csv = await (await fetch(again + done.result!.href)).text();
    const rows = parse(csv, { columns: true }) as Array<{ id: string }>;
    expect(rows).toHaveLength(10_000);
    expect(new Set(rows.map((row) => row.id)).size).toBe(10_000);
    // Each of the 334 pages once, and at most the one in flight at the kill again.
    expect(fixture.upstream.hits()).toBeLessThanOrEqual(334 + 1);
    second.child.kill('SIGTERM');
    await second.exited;
  });
});
