import { parse as parseCsv } from 'csv-parse/sync';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BIG_CHANNEL_PLAYLISTS,
  BIG_CHANNEL_VIDEOS,
  FIXTURE_IDS,
  FIXTURE_SIZES,
  SMALL_CHANNEL_VIDEOS,
} from '../../catalogue/demo-fixtures.ts';
import { jobPointer, jobPointerOf } from '../../shared/job-pointer.ts';
import { jobPath, jobSchema } from '../../shared/jobs.ts';
import { PROBLEM_CONTENT_TYPE, problemSchema } from '../../shared/problem.ts';
import {
  exportedItemSchemas,
  exportPath,
  listSummarySchema,
  summaryPath,
  walkCostPath,
  walkPath,
  walkCostSchema,
  walkProgressSchema,
  type ExportFormat,
  type ListKind,
} from '../../shared/whole-list.ts';
import {
  startExplorerFixture,
  type ExplorerEnv,
  type ExplorerFixture,
} from '../../test-support/explorer-fixture.ts';
import { STRESS_RUNS } from '../../test-support/stress.ts';

// A synchronous export answers a complete file, or is refused before its first byte with the
// job that can do it (docs/jobs.md, "Synchronous exports and jobs"): never a download cut part
// way for want of quota. Over real HTTP, the explorer in front of the embedded catalogue behind
// the counting proxy, a fresh explorer (its window, its cache) wherever a test needs one.

let fixture: ExplorerFixture;

beforeAll(async () => {
  fixture = await startExplorerFixture();
});

afterEach(() => fixture.reset());

afterAll(() => fixture.close());

const CLIENT = '198.51.100.40';
const from = (address = CLIENT) => ({ headers: { 'X-Forwarded-For': address } });

const serveExplorer = (env: ExplorerEnv = {}) =>
  fixture.serve({ STATIC_ROOT: 'no-such-build', TRUST_PROXY: 'true', ...env });

/** A refusal sent before any byte of a file: a problem document, and the job to start instead. */
async function refusalOf(response: Response, list: ListKind, id: string, format: ExportFormat) {
  expect(response.headers.get('content-type')?.startsWith(PROBLEM_CONTENT_TYPE)).toBe(true);
  expect(response.headers.get('content-disposition')).toBeNull();
  const problem = problemSchema.passthrough().parse(await response.json());
  expect(problem.status).toBe(response.status);
  expect(jobPointerOf(problem)).toEqual(jobPointer({ list, id, kind: 'export', format }));
  if (response.status === 429 || response.status === 503) {
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(problem.retryAfter).toBe(Number(response.headers.get('retry-after')));
  }
  return problem as typeof problem & { progress?: unknown };
}

/** A CSV export read whole: its body must not fail, its rows be the list's, its end a line's. */
async function csvRows(response: Response): Promise<number> {
  const bytes = new Uint8Array(await response.arrayBuffer());
  const length = response.headers.get('content-length');
  if (length !== null) expect(Number(length)).toBe(bytes.byteLength);
  const text = new TextDecoder().decode(bytes);
  expect(text.endsWith('\r\n')).toBe(true);
  return (parseCsv(text, { columns: true, record_delimiter: '\r\n' }) as unknown[]).length;
}

describe('a synchronous export is a complete file or a refusal before its first byte', () => {
  it('the 5,000-item playlist and the 10,000-video channel at once on a window of 370: one file whole, the other refused with its job', async () => {
    // 50 lookups for the playlist (its first page, then 49 reserved at once) and 334 for the
    // channel: 384, more than the window's 370. Whichever pays first gets its file; the other
    // cannot have all of its own, and is told so before a byte of it is sent.
    const lists = [
      {
        list: 'playlist',
        id: FIXTURE_IDS.playlist5000,
        rows: FIXTURE_SIZES[FIXTURE_IDS.playlist5000],
      },
      { list: 'channel-videos', id: FIXTURE_IDS.bigChannel, rows: BIG_CHANNEL_VIDEOS },
    ] as const;
    const outcomes = new Set<string>();
    for (let run = 0; run < STRESS_RUNS; run++) {
      // A fresh explorer: a fresh window, and no page cached by the run before.
      const explorer = await serveExplorer({
        CATALOGUE_QUOTA: '370',
        CLIENT_SHARE_OF_WINDOW: '1',
      });
      try {
        const answers = await Promise.all(
          lists.map(({ list, id }) => explorer.get(exportPath(list, id, 'csv'), from())),
        );
        const outcome: string[] = [];
        for (const [i, answer] of answers.entries()) {
          const { list, id, rows } = lists[i]!;
          if (answer.status === 200) {
            expect(await csvRows(answer)).toBe(rows);
            outcome.push(`${list} 200`);
          } else {
            const problem = await refusalOf(answer, list, id, 'csv');
            outcome.push(`${list} ${answer.status} ${problem.code}`);
          }
        }
        // Exactly one of the two fits what the window holds, whichever it is.
        expect(outcome.filter((o) => o.endsWith(' 200'))).toHaveLength(1);
        for (const one of outcome) outcomes.add(one);
      } finally {
        await explorer.close();
      }
    }
    // Every refusal was the window's (the client's share is the whole window here, so either
    // may be the one that says so): nothing else stood in the way.
    const spent = /^\S+ (200|429 (quota|share)_exhausted)$/;
    for (const outcome of outcomes) expect(outcome).toMatch(spent);
  }, 120_000);

  it('a channel small enough exports completely, in every format, with its length said up front', async () => {
    const explorer = await serveExplorer();
    const small = await explorer.get(
      exportPath('channel-videos', FIXTURE_IDS.smallChannel, 'csv'),
      from(),
    );
    expect(small.status).toBe(200);
    expect(small.headers.get('content-disposition')).toMatch(/^attachment; filename="/);
    expect(await csvRows(small)).toBe(SMALL_CHANNEL_VIDEOS);

    const json = await explorer.get(
      exportPath('channel-videos', FIXTURE_IDS.smallChannel, 'json'),
      from(),
    );
    expect(json.status).toBe(200);
    const items = exportedItemSchemas['channel-videos'].array().parse(await json.json());
    expect(items).toHaveLength(SMALL_CHANNEL_VIDEOS);

    const playlists = await explorer.get(
      exportPath('channel-playlists', FIXTURE_IDS.bigChannel, 'txt'),
      from(),
    );
    expect(playlists.status).toBe(200);
    const text = await playlists.text();
    expect(Number(playlists.headers.get('content-length'))).toBe(Buffer.byteLength(text));
    expect(text.split('\n').slice(0, -1)).toHaveLength(BIG_CHANNEL_PLAYLISTS);

    // A channel with no playlists: an empty file, complete.
    const none = await explorer.get(
      exportPath('channel-playlists', FIXTURE_IDS.smallChannel, 'json'),
      from(),
    );
    expect([none.status, await none.text()]).toEqual([200, '[]\n']);
  });

  it('a channel the window cannot pay for whole is refused with its job; the pages read stay cached and the job is one', async () => {
    const explorer = await serveExplorer({ CATALOGUE_QUOTA: '100', CLIENT_SHARE_OF_WINDOW: '1' });
    const list = 'channel-videos';
    const id = FIXTURE_IDS.bigChannel;
    const refused = await explorer.get(exportPath(list, id, 'csv'), from());
    expect(refused.status).toBe(429);
    const problem = await refusalOf(refused, list, id, 'csv');
    // The client's share is the whole window here: either is spent as the other is.
    expect(problem.code).toMatch(/^(quota|share)_exhausted$/);
    // The first page, then the 99 the window had left: the window's whole budget, no more.
    expect(walkProgressSchema.parse(problem.progress)).toEqual({
      pages: 100,
      items: 3000,
      totalItems: null,
    });
    expect(fixture.upstream.hits()).toBe(100);

    // What was read is in the cache: the job that follows (or a later try) reads it for nothing.
    const cost = walkCostSchema.parse(
      await (await explorer.get(walkCostPath(list, id), from())).json(),
    );
    expect(cost.cachedPages).toBe(100);
    expect(fixture.upstream.hits()).toBe(100);

    // The pointer, followed as it is, starts the job; followed again, it finds the same one.
    const pointer = jobPointerOf(problem)!;
    const follow = () =>
      explorer.get(pointer.href, {
        method: pointer.method,
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': CLIENT },
        body: JSON.stringify(pointer.body),
      });
    const made = await follow();
    expect(made.status).toBe(202);
    const job = jobSchema.parse(await made.json());
    expect(job.request).toEqual(pointer.body);
    const again = await follow();
    expect(again.status).toBe(200);
    expect(jobSchema.parse(await again.json()).id).toBe(job.id);
    // It would wait for the next window; this test is done with it.
    expect((await explorer.get(jobPath(job.id), { method: 'DELETE' })).status).toBe(200);
  });

  it('a list longer than an export holds before it answers is refused with its job (list_too_long)', async () => {
    // 300,000 videos: the spool fills (its 16 MiB, some 600 pages) long before the list ends,
    // with the window and the share both wide enough not to stop it first.
    const explorer = await serveExplorer({
      CATALOGUE_QUOTA: '100000',
      CLIENT_SHARE_OF_WINDOW: '1',
    });
    const list = 'channel-videos';
    const id = FIXTURE_IDS.hugeChannel;
    const refused = await explorer.get(exportPath(list, id, 'json'), from());
    expect(refused.status).toBe(409);
    const problem = await refusalOf(refused, list, id, 'json');
    expect(problem.code).toBe('list_too_long');
    const { pages } = walkProgressSchema.parse(problem.progress);
    expect(pages).toBeGreaterThan(100);
    expect(pages).toBeLessThanOrEqual(1_001);
    // Read ahead at most one page past those it held.
    expect(fixture.upstream.hits()).toBeLessThanOrEqual(pages + 1);
    const cost = walkCostSchema.parse(
      await (await explorer.get(walkCostPath(list, id), from())).json(),
    );
    expect(cost.cachedPages).toBeGreaterThanOrEqual(pages);
  }, 60_000);

  it('a summary of the whole list and the walk stream point to their own jobs; a range, which no job sums, to none', async () => {
    // The playlist needs 49 lookups more than its first page; the window has 29 left.
    const explorer = await serveExplorer({ CATALOGUE_QUOTA: '30', CLIENT_SHARE_OF_WINDOW: '1' });
    const id = FIXTURE_IDS.playlist5000;
    const pointerOf = async (path: string) => {
      const response = await explorer.get(path, from());
      expect(response.status).toBe(429);
      return jobPointerOf(await response.json());
    };
    expect(await pointerOf(summaryPath('playlist', id))).toEqual(
      jobPointer({ list: 'playlist', id, kind: 'summary' }),
    );
    expect(await pointerOf(walkPath('playlist', id))).toEqual(
      jobPointer({ list: 'playlist', id, kind: 'load-all' }),
    );
    expect(await pointerOf(summaryPath('playlist', id, { from: 1, to: 4_000 }))).toBeUndefined();
    expect(fixture.upstream.hits()).toBe(1);
  });

  it('a walk too slow to end before its answer’s first byte must go out: the export is refused with its job, the summary says it is incomplete', async () => {
    // The first byte is due within two thirds of the idle timeout (1 s here); 334 pages at
    // 50 ms each, one ahead at most, take several seconds.
    const explorer = await serveExplorer({
      HTTP_IDLE_TIMEOUT_MS: '1500',
      UPSTREAM_TIMEOUT_MS: '1000',
      CLIENT_SHARE_OF_WINDOW: '1',
    });
    await fixture.setFaults({ latencyMs: 50 });
    const list = 'channel-videos';
    const id = FIXTURE_IDS.bigChannel;
    const refused = await explorer.get(exportPath(list, id, 'txt'), from());
    expect(refused.status).toBe(409);
    const problem = await refusalOf(refused, list, id, 'txt');
    expect(problem.code).toBe('list_too_long');
    expect(walkProgressSchema.parse(problem.progress).pages).toBeLessThan(334);

    const summary = await explorer.get(summaryPath(list, id), from());
    expect(summary.status).toBe(200);
    expect(listSummarySchema.parse(await summary.json())).toMatchObject({
      complete: false,
      stoppedBy: { code: 'list_too_long' },
    });
  });
});
