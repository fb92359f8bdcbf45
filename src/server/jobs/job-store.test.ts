import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { jobFiles, type JobFiles } from './job-files.ts';
import { memoryJobRecords, queuedJob } from './job-records.ts';
import { localJobStore } from './job-store.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const queued = queuedJob(
  {
    id: 'job-1',
    key: 'key-1',
    client: 'client-a',
    request: { list: 'playlist', id: 'PLsomePlaylistId0001', kind: 'export', format: 'csv' },
  },
  0,
);

it('a cancel that arrives during a runner’s write is not written over', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'job-store-'));
  dirs.push(dir);
  const real = jobFiles(dir);
  // The runner's file work takes a moment, as a disk's does: the cancel arrives meanwhile.
  let letGo = () => {};
  const slowCut = new Promise<void>((resolve) => (letGo = resolve));
  const files: JobFiles = {
    ...real,
    cut: async (id, bytes) => {
      await slowCut;
      await real.cut(id, bytes);
    },
  };
  const store = localJobStore(memoryJobRecords(), files);
  await store.create(queued);
  expect(await store.claim(queued.id, 'runner', 60_000)).toBe(true);

  const resumed = store.resume('runner', { ...queued, state: 'running' });
  const cancelled = store.cancel(queued.id, 1);
  letGo();
  expect(await resumed).toBe(true);
  expect((await cancelled)?.state).toBe('cancelled');
  expect((await store.get(queued.id))?.state).toBe('cancelled');
  // And the runner's next write is refused: it has lost its job.
  expect(await store.save('runner', { ...queued, state: 'running', pages: 1 })).toBe(false);
});
