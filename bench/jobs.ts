import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import {
  FIXTURE_IDS,
  HUGE_CHANNEL_VIDEOS,
  BIG_CHANNEL_VIDEOS,
} from '../src/catalogue/demo-fixtures.ts';
import { endpoints } from '../src/shared/endpoints.ts';
import { jobSchema, type Job, type JobRequest } from '../src/shared/jobs.ts';
import { catalogueStart } from './catalogue-paging.ts';
import { startExplorer } from './explorer.ts';
import { CLIENT_CORE, onCore, SERVER_CORE } from './processes.ts';
import { formatSpread, median, spread } from './stats.ts';
import type { BenchRow } from './table.ts';

// Bench 18: a whole-list job's pace. The demo's channel of 300,000 videos (10,000 pages of 30)
// exported to CSV as a job (docs/jobs.md), with a window large enough that it never waits: its
// lookups per second beside the raw continuation chain's, a client following `continuation`
// against the upstream as fast as it can, measured in the same round, alternating which goes
// first. The job is timed by its own record (asked for → done), so the polling adds nothing.
// And the explorer's peak resident memory above where it stood once it had run a short job,
// sampled every 5 ms from /proc: a job's rows go to disk, so it should not grow with the list.
// The smoke run takes the 10,000-video channel instead (334 pages).

const residentBytes = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;

/** Pages per second of a client following the channel's chain straight from the upstream. */
async function rawChain(upstream: { url: string; headers: Record<string, string> }, id: string) {
  const pool = new Pool(upstream.url, { connections: 1 });
  try {
    let pages = 0;
    let continuation: string | null = null;
    const started = performance.now();
    do {
      const query = new URLSearchParams({ id });
      if (continuation) query.set('continuation', continuation);
      const { statusCode, body } = await pool.request({
        method: 'GET',
        path: `${endpoints['channel-videos'].path}?${query}`,
        headers: upstream.headers,
      });
      if (statusCode !== 200) throw new Error(`raw chain: ${statusCode}`);
      continuation = ((await body.json()) as { continuation: string | null }).continuation;
      pages++;
    } while (continuation);
    return pages / ((performance.now() - started) / 1000);
  } finally {
    await pool.close();
  }
}

async function runJob(url: string, request: JobRequest, onPoll?: () => void): Promise<Job> {
  const made = await fetch(`${url}/api/jobs`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(request),
  });
  if (made.status !== 202) throw new Error(`job: ${made.status} ${await made.text()}`);
  const location = made.headers.get('location')!;
  for (;;) {
    onPoll?.();
    const job = jobSchema.parse(await (await fetch(url + location)).json());
    if (job.state === 'done') return job;
    if (job.state === 'failed' || job.state === 'cancelled')
      throw new Error(`job ${job.state}: ${job.problem?.detail ?? ''}`);
    await sleep(100);
  }
}

export async function benchJobs(options: { rounds: number; smoke: boolean }): Promise<BenchRow[]> {
  const id = options.smoke ? FIXTURE_IDS.bigChannel : FIXTURE_IDS.hugeChannel;
  const videos = options.smoke ? BIG_CHANNEL_VIDEOS : HUGE_CHANNEL_VIDEOS;
  const catalogue = await catalogueStart({}, CLIENT_CORE);
  const jobRates: number[] = [];
  const rawRates: number[] = [];
  const growth: number[] = [];
  let pages = 0;
  let bytes = 0;
  try {
    for (let round = 0; round < options.rounds; round++) {
      const rawFirst = round % 2 === 0;
      const raw = () => onCore(SERVER_CORE, () => rawChain(catalogue, id));
      if (rawFirst) rawRates.push(await raw());
      // A fresh explorer each round (its caches cold, its window unspent), as users run it but
      // with the window lifted (bench/explorer.ts): the job never waits.
      const explorer = await startExplorer(catalogue);
      try {
        // Its code compiled and its stores open: a short job of the same kind first.
        await runJob(explorer.url, {
          list: 'channel-videos',
          id: FIXTURE_IDS.smallChannel,
          kind: 'export',
          format: 'csv',
        });
        const pid = explorer.child.process.pid!;
        const before = residentBytes(pid);
        let peak = before;
        const timer = setInterval(() => (peak = Math.max(peak, residentBytes(pid))), 5);
        let job: Job;
        try {
          job = await runJob(explorer.url, {
            list: 'channel-videos',
            id,
            kind: 'export',
            format: 'csv',
          });
        } finally {
          clearInterval(timer);
        }
        if (job.progress.items !== videos) throw new Error(`job: ${job.progress.items} rows`);
        pages = job.progress.pages;
        bytes = job.result!.bytes;
        const seconds = (Date.parse(job.updatedAt) - Date.parse(job.createdAt)) / 1000;
        jobRates.push(job.progress.lookups / seconds);
        growth.push((peak - before) / 2 ** 20);
      } finally {
        await explorer.stop();
      }
      if (!rawFirst) rawRates.push(await raw());
    }
  } finally {
    await catalogue.stop();
  }
  const ratio = median(jobRates.map((rate, i) => rate / (rawRates[i] as number)));
  const g = spread(growth);
  const size = `${videos.toLocaleString('en')} videos, ${pages.toLocaleString('en')} pages, ${(bytes / 2 ** 20).toFixed(0)} MB of CSV`;
  return [
    {
      bench: '18',
      measure: `a CSV export job of the ${size}, the window never waiting: lookups per second`,
      figure: formatSpread(spread(jobRates), 0, '/s'),
      reference: `raw continuation chain against the upstream ${formatSpread(spread(rawRates), 0, '/s')}`,
      ratio: `${ratio.toFixed(2)}× (median of pairs)`,
      target: '≥ 0.9×',
      met: ratio >= 0.9,
    },
    {
      bench: '18',
      measure: `the same job, by an explorer that has run a short one: peak resident memory growth`,
      figure: formatSpread(g, 1, ' MB'),
      reference: `the file itself: ${(bytes / 2 ** 20).toFixed(0)} MB`,
      ratio: `${(g.median / (bytes / 2 ** 20)).toFixed(2)}× the file`,
      target: '≤ 30 MB',
      met: g.median <= 30,
    },
  ];
}
