import { setTimeout as sleep } from 'node:timers/promises';
import { Pool } from 'undici';
import {
  FIXTURE_IDS,
  HUGE_CHANNEL_VIDEOS,
  BIG_CHANNEL_VIDEOS,
} from '../src/catalogue/demo-fixtures.ts';
import { readServerConfig } from '../src/server/config.ts';
import { jobCapOf } from '../src/server/quota/quota-window.ts';
import { endpoints } from '../src/shared/endpoints.ts';
import { isFinished, type Job, type JobRequest } from '../src/shared/jobs.ts';
import { postJob, readJob, untilJob } from '../src/test-support/job-requests.ts';
import { residentBytes as residentOf } from '../src/test-support/memory-probe.ts';
import { catalogueStart } from './catalogue-paging.ts';
import { startExplorer } from './explorer.ts';
import { labelled, LOCAL, profileEnv, REMOTE_LIKE } from './latency-profiles.ts';
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
// Against the local upstream the explorer's own work on each page (checking it against the
// schema, writing its rows) is most of the time; against one with the real service's latency
// (remote-like), the upstream's. The smoke run takes the 10,000-video channel instead (334
// pages), locally only.
//
// And the work-conserving share: on `npm start`'s defaults but a window of seconds, one client's
// job of the same channel spends the jobs' part of each window (the budget less the readers'
// reserve), not the client's share of it; while it runs, a second client gets its whole share
// at once. Two windows measured, then the burst, then the job is cancelled: the whole channel
// would take many windows and say nothing more.

const residentBytes = (pid: number) => residentOf(pid) ?? 0;

/**
 * Pages per second of a client following the channel's chain straight from the upstream, over
 * its first `limit` pages (all of them unless said).
 */
async function rawChain(
  upstream: { url: string; headers: Record<string, string> },
  id: string,
  limit = Infinity,
) {
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
    } while (continuation && pages < limit);
    return pages / ((performance.now() - started) / 1000);
  } finally {
    await pool.close();
  }
}

/** Asks for the job and reads it until it is done (or `until` says so). */
async function runJob(
  url: string,
  request: JobRequest,
  until: (job: Job) => boolean = () => false,
): Promise<Job> {
  const made = await postJob(url, request);
  if (made.status !== 202) throw new Error(`job: ${made.status} ${await made.text()}`);
  const job = await untilJob(
    url,
    made.headers.get('location')!,
    (j) => isFinished(j.state) || until(j),
    { timeoutMs: 30 * 60_000, everyMs: 100 },
  );
  if (job.state === 'failed' || job.state === 'cancelled')
    throw new Error(`job ${job.state}: ${job.problem?.detail ?? ''}`);
  return job;
}

/** Pages per second of a job, from its record: asked for → its last page noted. */
const pace = (job: Job) =>
  job.progress.pages / ((Date.parse(job.updatedAt) - Date.parse(job.createdAt)) / 1000);

/**
 * The first `pages` pages of the channel's job against an upstream with the real service's
 * latency (latency-profiles.ts), beside the raw chain's first as many; the job is then
 * cancelled (the whole channel would take half an hour at this pace, the same for both).
 */
async function remotePace(rounds: number, pages: number) {
  const catalogue = await catalogueStart(profileEnv(REMOTE_LIKE), CLIENT_CORE);
  const job: number[] = [];
  const raw: number[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      const rawFirst = round % 2 === 0;
      const chain = () =>
        onCore(SERVER_CORE, () => rawChain(catalogue, FIXTURE_IDS.hugeChannel, pages));
      if (rawFirst) raw.push(await chain());
      const explorer = await startExplorer(catalogue);
      try {
        const request = {
          list: 'channel-videos',
          id: FIXTURE_IDS.hugeChannel,
          kind: 'export',
        } as const;
        const part = await runJob(explorer.url, request, (j) => j.progress.pages >= pages);
        job.push(pace(part));
        await fetch(`${explorer.url}/api/jobs/${part.id}`, { method: 'DELETE' });
      } finally {
        await explorer.stop();
      }
      if (!rawFirst) raw.push(await chain());
    }
  } finally {
    await catalogue.stop();
  }
  return { job, raw };
}

/** Lookups spent by `at`, between the two samples around it (samples in time order). */
function lookupsAt(samples: ReadonlyArray<{ at: number; lookups: number }>, at: number): number {
  const after = samples.findIndex((sample) => sample.at >= at);
  if (after === -1) return samples.at(-1)?.lookups ?? 0;
  if (after === 0) return samples[0]!.lookups;
  const a = samples[after - 1]!;
  const b = samples[after]!;
  return a.lookups + ((b.lookups - a.lookups) * (at - a.at)) / (b.at - a.at);
}

/**
 * One client's whole-channel job over `windows` windows of the given quota, the lookups it
 * spent in each; then a second client's burst of uncached pages while the job runs.
 */
async function workConserving(options: {
  windowSeconds: number;
  budget: number;
  windows: number;
}): Promise<BenchRow[]> {
  const quota = {
    CATALOGUE_QUOTA: String(options.budget),
    CATALOGUE_QUOTA_WINDOW: `${options.windowSeconds}s`,
  };
  // The share and the jobs' part as the server works them out from its defaults.
  const config = readServerConfig(quota);
  const share = Math.max(1, Math.floor(config.clientShareOfWindow * config.quotaBudget));
  const jobsPart = jobCapOf(config.quotaBudget, config.jobReaderReserve);
  const catalogue = await catalogueStart({}, CLIENT_CORE);
  const perWindow: number[] = [];
  let waited: number;
  let burst: {
    answered: number;
    misses: number;
    ms: number;
    next: string;
    jobState: string;
    jobLookups: number;
  };
  try {
    const explorer = await startExplorer(catalogue, {
      ...quota,
      // The bench's lifted limits put back to the defaults, but the per-second limit's burst:
      // a client's whole share at once is what the row asks for, and that burst is smaller.
      CLIENT_RATE_LIMIT_BURST: String(options.budget),
      CLIENT_RATE_LIMIT_PER_SECOND: undefined,
      CHAIN_WARM_SHARE: undefined,
      TRUST_PROXY: 'true',
    });
    try {
      const made = await postJob(
        explorer.url,
        { list: 'channel-videos', id: FIXTURE_IDS.hugeChannel, kind: 'export', format: 'csv' },
        '192.0.2.1',
      );
      if (made.status !== 202) throw new Error(`job: ${made.status} ${await made.text()}`);
      const started = performance.now();
      const location = made.headers.get('location')!;
      const windowMs = options.windowSeconds * 1000;
      const samples: Array<{ at: number; lookups: number }> = [{ at: started, lookups: 0 }];
      const waitedIn = new Set<number>();
      // Read often enough that a window's edge falls between samples a few pages apart.
      while (performance.now() - started < options.windows * windowMs + 200) {
        const job = await readJob(explorer.url, location);
        const at = performance.now();
        if (isFinished(job.state)) throw new Error(`job ${job.state} within the windows`);
        samples.push({ at, lookups: job.progress.lookups });
        if (job.state === 'waiting') waitedIn.add(Math.floor((at - started) / windowMs));
        await sleep(100);
      }
      for (let w = 0; w < options.windows; w++)
        perWindow.push(
          lookupsAt(samples, started + (w + 1) * windowMs) -
            lookupsAt(samples, started + w * windowMs),
        );
      waited = [...waitedIn].filter((w) => w < options.windows).length;

      // The second client: the huge channel's pages from its first, none of them cached (the
      // job keeps its pages out of the caches), one after another, then one more.
      const pool = new Pool(explorer.url, { connections: 1 });
      try {
        let continuation: string | null = null;
        let answered = 0;
        let misses = 0;
        const read = async () => {
          const query = new URLSearchParams({ id: FIXTURE_IDS.hugeChannel });
          if (continuation) query.set('continuation', continuation);
          const response = await pool.request({
            method: 'GET',
            path: `${endpoints['channel-videos'].path}?${query}`,
            headers: { 'X-Forwarded-For': '192.0.2.2' },
          });
          const body = (await response.body.json()) as {
            continuation?: string | null;
            code?: string;
          };
          return { status: response.statusCode, cache: response.headers['x-cache'], body };
        };
        const from = performance.now();
        for (let n = 0; n < share; n++) {
          const answer = await read();
          if (answer.status !== 200) break;
          answered++;
          if (answer.cache === 'miss') misses++;
          continuation = answer.body.continuation ?? null;
        }
        const ms = performance.now() - from;
        const next = await read();
        const job = await readJob(explorer.url, location);
        burst = {
          answered,
          misses,
          ms,
          next: next.status === 200 ? '200' : `${next.status} ${next.body.code ?? ''}`.trim(),
          jobState: job.state,
          jobLookups: job.progress.lookups,
        };
      } finally {
        await pool.close();
      }
      const cancelled = await fetch(explorer.url + location, { method: 'DELETE' });
      if (!cancelled.ok) throw new Error(`cancel: ${cancelled.status}`);
    } finally {
      await explorer.stop();
    }
  } finally {
    await catalogue.stop();
  }
  const windows = spread(perWindow);
  const ratio = windows.median / jobsPart;
  const n = (value: number) => value.toLocaleString('en');
  const conditions = `\`npm start\`'s defaults but a window of ${options.windowSeconds} s and ${n(options.budget)} lookups`;
  const stillRunning = burst.jobState === 'running' || burst.jobState === 'waiting';
  return [
    {
      bench: '18',
      measure: labelled(
        `one client's CSV export job of the ${n(HUGE_CHANNEL_VIDEOS)}-video channel, past its share (${conditions}): lookups per window, over ${options.windows} windows`,
        { profile: LOCAL },
      ),
      figure: `${formatSpread(windows, 0)} (waiting for the window in ${waited} of ${options.windows})`,
      reference: `the window's allowance for jobs, budget × (1 − JOB_READER_RESERVE): ${n(jobsPart)}; the client's share ${n(share)}`,
      ratio: `${ratio.toFixed(2)}× the jobs' part (${(windows.median / share).toFixed(1)}× the share)`,
      target: '≥ 0.9×',
      met: ratio >= 0.9,
    },
    {
      bench: '18',
      measure: labelled(
        `while that job runs, a second client's burst of uncached pages (${conditions}, the per-second limit's burst raised to the budget): pages answered 200`,
        { profile: LOCAL },
      ),
      figure: `${n(burst.answered)} (${n(burst.misses)} upstream lookups) in ${n(Math.round(burst.ms))} ms; the next: ${burst.next}`,
      reference: `its share of the window: ${n(share)} lookups; the job meanwhile ${burst.jobState}, ${n(burst.jobLookups)} lookups spent`,
      ratio: `${(burst.answered / share).toFixed(2)}× its share`,
      target: '≥ 1× its share, then share_exhausted',
      met:
        burst.answered === share &&
        burst.misses === share &&
        burst.next === '429 share_exhausted' &&
        stillRunning,
    },
  ];
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
        jobRates.push(pace(job));
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
  const remotePages = 120;
  const remote = options.smoke ? null : await remotePace(options.rounds, remotePages);
  const g = spread(growth);
  const size = `${videos.toLocaleString('en')} videos, ${pages.toLocaleString('en')} pages, ${(bytes / 2 ** 20).toFixed(0)} MB of CSV`;
  const rows: BenchRow[] = [
    {
      bench: '18',
      measure: labelled(
        `a CSV export job of the ${size}, the window never waiting: lookups per second`,
        { profile: LOCAL },
      ),
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
  rows.push(
    ...(await workConserving(
      options.smoke
        ? { windowSeconds: 4, budget: 400, windows: 2 }
        : { windowSeconds: 20, budget: 4000, windows: 2 },
    )),
  );
  if (remote !== null) {
    const remoteRatio = median(remote.job.map((rate, i) => rate / (remote.raw[i] as number)));
    rows.splice(1, 0, {
      bench: '18',
      measure: labelled(
        `the same job's first ${remotePages} pages against an upstream with the real service's latency: lookups per second`,
        { profile: REMOTE_LIKE },
      ),
      figure: formatSpread(spread(remote.job), 1, '/s'),
      reference: `raw continuation chain's first ${remotePages} pages ${formatSpread(spread(remote.raw), 1, '/s')}`,
      ratio: `${remoteRatio.toFixed(2)}× (median of pairs)`,
      target: '≥ 0.9×',
      met: remoteRatio >= 0.9,
    });
  }
  return rows;
}
