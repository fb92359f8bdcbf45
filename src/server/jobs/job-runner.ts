import type { ExportFormat, ListItem } from '../../shared/whole-list.ts';
import { abortableSleep } from '../../shared/abortable-sleep.ts';
import { problem } from '../../shared/problem.ts';
import type { PageAnswer } from '../pages/page-entry.ts';
import type { PageSource } from '../pages/page-source.ts';
import { paidBy } from '../quota/prepaid-calls.ts';
import type { Reservation } from '../quota/quota-guard.ts';
import { exportWriter } from '../whole-list/export-formats.ts';
import { createSummaryFold } from '../whole-list/list-summary.ts';
import type { JobRecord } from './job-records.ts';
import type { JobStore } from './job-store.ts';

// One job's walk of its list, from where its record says it is to the end (spec §2.6). Each
// page is paid for first out of the jobs' part of the window (job-pacer.ts), so it never waits
// on the client's allowance nor takes what readers are kept; without room the job waits, saying
// until when. A page's rows and the record noting it are written in one step, so a restart cuts
// the file back to the last page noted (job-records.ts); a runner whose lease went elsewhere is
// refused its writes (job-store.ts). An upstream asking to wait is waited for; any other
// failure ends the job. A summary's rows are JSON lines folded at the end (list-summary.ts).

export type PacerAnswer =
  { ok: true; reservation: Reservation } | { ok: false; retryAfterSeconds: number };

export interface JobPacer {
  take(client: string): Promise<PacerAnswer>;
}

export interface JobRunParts {
  pageSource: Pick<PageSource, 'get'>;
  pacer: JobPacer;
  store: JobStore;
  /** How long a finished result is kept. */
  resultTtlMs: number;
  now?: () => number;
  /** Waits `ms` (tests make time pass faster); resolves early when `signal` aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

interface AnyPageData {
  items: ListItem[];
  continuation: string | null;
  info?: { totalItems?: number; title?: string };
}

/** What the job's file is written as. */
function formatOf(record: JobRecord): ExportFormat | 'lines' {
  if (record.request.kind === 'summary') return 'lines';
  if (record.request.kind === 'load-all') return 'json';
  return record.request.format ?? 'csv';
}

function rowsWriter(record: JobRecord) {
  const format = formatOf(record);
  const { list, id } = record.request;
  if (format === 'lines')
    return {
      head: '',
      items: (items: readonly ListItem[]) =>
        items.map((item) => `${JSON.stringify(item)}\n`).join(''),
      tail: '',
    };
  return exportWriter(format, list, id);
}

/** How often a job waiting for room in the window asks again. */
const RECHECK_MS = 250;

/**
 * Runs `record`'s job as `owner` (the holder of its lease) until it ends, `signal` aborts (a
 * stop, a lost lease) or the store refuses a write (cancelled, taken over); the record as left.
 */
export async function runJob(
  start: JobRecord,
  owner: string,
  parts: JobRunParts,
  signal: AbortSignal,
): Promise<JobRecord> {
  const { pageSource, pacer, store, now = Date.now, sleep = abortableSleep } = parts;
  let record: JobRecord = { ...start };
  let held = true;
  const change = (update: Partial<JobRecord>) => {
    record = { ...record, ...update, updatedAt: now() };
    return record;
  };
  const save = async (update: Partial<JobRecord>) => {
    held &&= await store.save(owner, change(update));
    return held;
  };
  const wait = async (seconds: number) => {
    const ms = Math.max(1, seconds) * 1000;
    if (!(await save({ state: 'waiting', waitingUntil: now() + ms }))) return;
    await sleep(ms, signal);
    if (!signal.aborted) await save({ state: 'running', waitingUntil: null });
  };
  const writer = rowsWriter(record);
  const endpoint = record.request.list;
  const { id } = record.request;

  /** A page paid for and asked for; the pacer's wait when there was no room. */
  type Fetched =
    | { ok: true; answer: PageAnswer }
    | { ok: false; retryAfterSeconds: number }
    | { ok: 'threw'; error: unknown };
  const fetchPage = async (continuation: string | null): Promise<Fetched> => {
    const paid = await pacer.take(record.client);
    if (!paid.ok) return paid;
    const answer = await paidBy(paid.reservation, () =>
      pageSource.get(
        { endpoint, id, continuation: continuation ?? undefined },
        record.client,
        // Read once, not kept: the caches are for what people read (page-source.ts).
        { keep: false },
      ),
    ).finally(() => paid.reservation.release());
    return { ok: true, answer };
  };
  /** Asked for ahead, its failure kept for when it is waited for. */
  const ask = (continuation: string | null) =>
    fetchPage(continuation).catch((error: unknown): Fetched => ({ ok: 'threw', error }));

  // Whatever was written past the last page noted is cut: that page is read again, unless it
  // is the page kept aside when it arrived (below), which is read from there.
  held = await store.resume(owner, change({ state: 'running', waitingUntil: null }));
  const kept = held ? await store.stashed(record.id) : null;
  /** The next page's answer: asked for ahead, or the page kept aside before a restart. */
  let ahead: Promise<Fetched> | null =
    kept !== null && kept.continuation === (record.next ?? '')
      ? Promise.resolve({ ok: true, answer: stashedAnswer(kept.body) })
      : null;

  while (held && !signal.aborted) {
    const first = record.pages === 0;
    if (!first && record.next === null) break;
    const fetched = await (ahead ?? ask(record.next));
    ahead = null;
    if (fetched.ok === 'threw') throw fetched.error;
    if (!fetched.ok) {
      // Said once, with when it goes on; asked again every RECHECK_MS meanwhile, since room
      // comes back a little at a time as the window slides and a whole second's rounding on
      // every wait would slow a long job by as much as a window's worth.
      const until = now() + Math.max(1, fetched.retryAfterSeconds) * 1000;
      if (record.state !== 'waiting' && !(await save({ state: 'waiting', waitingUntil: until })))
        break;
      await sleep(Math.max(1, Math.min(until - now(), RECHECK_MS)), signal);
      continue;
    }
    const { answer } = fetched;
    if (signal.aborted) break;
    if (answer.kind === 'problem') {
      if (answer.status === 429 || answer.status === 503) {
        await wait(answer.retryAfterSeconds ?? 5);
        continue;
      }
      // A failed job's record says why for as long as a result would be kept.
      await save({
        state: 'failed',
        problem: problem(answer.code, answer.detail, { status: answer.status }),
        expiresAt: now() + parts.resultTtlMs,
      });
      return record;
    }
    const data = (answer.data ?? JSON.parse(answer.page.body.toString('utf8'))) as AnyPageData;
    if (data.continuation !== null) {
      // The next page is asked for now, while this one's rows are written: the walk goes at
      // the upstream's pace rather than the upstream's and the explorer's added. This page is
      // kept aside first, so that a restart at any moment has at most one page the upstream
      // saw and nobody kept (the one asked for ahead): never two.
      if (!(await store.stash(record.id, record.next ?? '', answer.page.body))) break;
      ahead = ask(data.continuation);
    }
    const text = (first ? writer.head : '') + writer.items(data.items, record.items === 0);
    held = await store.commitPage(
      owner,
      change({
        pages: record.pages + 1,
        items: record.items + data.items.length,
        lookups: record.lookups + (answer.cache === 'miss' ? 1 : 0),
        totalItems: first ? (data.info?.totalItems ?? null) : record.totalItems,
        next: data.continuation,
        bytes: record.bytes + Buffer.byteLength(text),
        state: 'running',
        waitingUntil: null,
      }),
      text,
    );
    if (data.continuation === null) break;
  }
  if (!held || signal.aborted) return record;

  const done = change({
    state: 'done',
    expiresAt: now() + parts.resultTtlMs,
    waitingUntil: null,
  });
  const ending =
    record.request.kind === 'summary'
      ? { replace: await summaryOf(record, store) }
      : { tail: writer.tail };
  await store.finish(owner, done, ending);
  return (await store.get(record.id)) ?? done;
}

/**
 * A page kept aside before a restart, answered as the job had it: a miss, a lookup spent (the
 * page was checked against the schema when it arrived, spec §4).
 */
function stashedAnswer(body: Buffer): PageAnswer {
  const page = { kind: 'page' as const, body, etag: '', freshUntil: 0, staleUntil: 0 };
  return { kind: 'page', cache: 'miss', page: { ...page, encoded: {}, encodedBytes: 0 } };
}

/** Folds the job's rows, kept as JSON lines, into the list's summary (constant memory a row). */
async function summaryOf(record: JobRecord, store: JobStore): Promise<string> {
  const fold = createSummaryFold(record.request.list);
  let batch: ListItem[] = [];
  let position = 1;
  for await (const line of store.partLines(record.id)) {
    batch.push(JSON.parse(line) as ListItem);
    if (batch.length === 1000) {
      fold.add(batch, position);
      position += batch.length;
      batch = [];
    }
  }
  fold.add(batch, position);
  const summary = fold.result({
    id: record.request.id,
    title: null,
    complete: true,
    stoppedBy: null,
    pages: record.pages,
    totalItems: record.totalItems,
  });
  return `${JSON.stringify(summary)}\n`;
}
