import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { JobRequest } from '../../shared/jobs.ts';
import { JOB_LIST_CHANGED, JOB_LIST_KEY, storedUnfinishedJob } from './job-list-key.ts';
import { JOB_LIST_VERSION, jobListText, readJobList, withJob, type StoredJob } from './job-list.ts';

// This browser's list of its jobs, the only way back to a job (the server lists none): read
// whatever damage the stored text holds without losing an entry, kept to a size, and a write
// that storage refuses still shown on the page and said.

const request: JobRequest = { list: 'channel-videos', id: 'UCx', kind: 'export', format: 'csv' };
const entry = (i: number, ended: StoredJob['ended'] = null): StoredJob => ({
  id: `job${String(i).padStart(19, '0')}`,
  request,
  title: `List ${i}`,
  createdAt: 1_790_000_000_000 + i,
  ended,
  notify: false,
});

describe('the stored list of jobs', () => {
  it('reads back what it wrote, newest first', () => {
    const state = { jobs: [entry(1), entry(2, 'done')], damaged: [] };
    const read = readJobList(jobListText(state));
    expect(read.jobs.map((job) => job.id)).toEqual([entry(2).id, entry(1).id]);
    expect(JSON.parse(jobListText(state)).version).toBe(JOB_LIST_VERSION);
  });

  it('keeps entries it cannot read, and fields a newer version added, as they were', () => {
    const odd = { id: 'not a job id', request };
    const newer = { ...entry(3), pinned: true };
    const text = JSON.stringify({ version: 2, jobs: [newer, odd, entry(3)] });
    const read = readJobList(text);
    expect(read.jobs).toEqual([newer]);
    // The second copy of the same job, and the unreadable one, go back as they were.
    expect(read.damaged).toEqual([odd, entry(3)]);
    expect(JSON.parse(jobListText(read)).jobs).toEqual([newer, odd, entry(3)]);
  });

  it('reads text that is not a list of jobs as none', () => {
    for (const text of [null, '', '{', '[]', '{"jobs":3}'])
      expect(readJobList(text)).toEqual({ jobs: [], damaged: [] });
  });

  it('drops the oldest ended jobs past 200, never an unfinished one', () => {
    let jobs: StoredJob[] = [];
    for (let i = 0; i < 250; i++) jobs = withJob(jobs, entry(i, i % 2 ? 'done' : null));
    expect(jobs).toHaveLength(200);
    expect(jobs.filter((job) => job.ended === null)).toHaveLength(125);
    expect(jobs[0]!.id).toBe(entry(249).id);
    // The same job again moves to the front, once.
    expect(withJob(jobs, jobs[10]!).filter((job) => job.id === jobs[10]!.id)).toHaveLength(1);
  });
});

describe('in a browser', () => {
  let items: Map<string, string>;
  let refuse: Error | null;
  const events: boolean[] = [];

  beforeEach(() => {
    items = new Map();
    refuse = null;
    const target = new EventTarget();
    vi.stubGlobal('window', target);
    vi.stubGlobal('localStorage', {
      getItem: (key: string) => items.get(key) ?? null,
      setItem: (key: string, value: string) => {
        if (refuse) throw refuse;
        items.set(key, value);
      },
    });
    target.addEventListener(JOB_LIST_CHANGED, (event) =>
      events.push((event as CustomEvent<boolean>).detail),
    );
    vi.resetModules();
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    events.length = 0;
  });

  it('keeps a job started, notes how it ended, and tells every page whether one runs', async () => {
    const { jobList } = await import('./job-list.ts');
    const id = entry(1).id;
    expect(jobList.add({ id, request, title: 'Endless Archive' })).toEqual({ ok: true });
    expect(storedUnfinishedJob()).toBe(true);
    expect(storedUnfinishedJob({ list: 'channel-videos', id: 'UCx' })).toBe(true);
    expect(storedUnfinishedJob({ list: 'playlist', id: 'UCx' })).toBe(false);
    jobList.setNotify(id, true);
    jobList.markEnded(id, 'done');
    expect(storedUnfinishedJob()).toBe(false);
    expect(readJobList(items.get(JOB_LIST_KEY)!).jobs).toMatchObject([
      { id, title: 'Endless Archive', ended: 'done', notify: true },
    ]);
    expect(events).toEqual([true, true, false]);
    jobList.remove(id);
    expect(jobList.get()).toEqual([]);
  });

  it('shows a job storage refused to keep on this page, and says why', async () => {
    const { jobList } = await import('./job-list.ts');
    refuse = new DOMException('full', 'QuotaExceededError');
    const id = entry(2).id;
    expect(jobList.add({ id, request, title: null })).toEqual({ ok: false, reason: 'full' });
    expect(jobList.get().map((job) => job.id)).toEqual([id]);
    expect(items.has(JOB_LIST_KEY)).toBe(false);
    refuse = new DOMException('denied', 'SecurityError');
    expect(jobList.remove(id)).toEqual({ ok: false, reason: 'unavailable' });
  });
});
