import type { ExportFormat, ListItem } from '../../shared/whole-list.ts';
import { problem } from '../../shared/problem.ts';
import type { PageSource } from '../pages/page-source.ts';
import { paidBy } from '../quota/prepaid-calls.ts';
import type { Reservation } from '../quota/quota-guard.ts';
import { exportWriter } from '../whole-list/export-formats.ts';
import { createSummaryFold } from '../whole-list/list-summary.ts';
import type { JobFiles } from './job-files.ts';
import type { JobRecord, JobRecords } from './job-records.ts';

// One job's walk of its list, from where its record says it is to the end, a page at a time
// (spec §2.6: each page's continuation names the next):
// - each page is paid for before it is asked for, by a reservation of one lookup from the
//   window's quota and the client's share that the pacer grants only out of the jobs' part of
//   the window (job-pacer.ts), so the page goes out at the upstream's speed, never waits on the
//   client's allowance, and never takes what is kept for people reading pages; a page the cache
//   holds spends nothing and its lookup goes back;
// - when the pacer has no room the job waits, saying until when, and goes on by itself;
// - its rows are appended to the part file, then the record notes the page, so a restart cuts
//   the file back and goes on from the last page noted (job-records.ts);
// - an upstream that says to wait (429, 503) is waited for; any other failure ends the job
//   with its problem.
// An export's file is the synchronous export's format (whole-list/export-formats.ts); a
// load-all's is the JSON export; a summary's rows are kept as JSON lines and folded into the
// summary (whole-list/list-summary.ts) at the end.

export type PacerAnswer =
  { ok: true; reservation: Reservation } | { ok: false; retryAfterSeconds: number };

export interface JobPacer {
  take(client: string): Promise<PacerAnswer>;
}

export interface JobRunParts {
  pageSource: Pick<PageSource, 'get'>;
  pacer: JobPacer;
  records: JobRecords;
  files: JobFiles;
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

export const defaultSleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/** Runs `record`'s job until it ends or `signal` aborts (a stop, a cancel); the record as left. */
export async function runJob(
  start: JobRecord,
  parts: JobRunParts,
  signal: AbortSignal,
): Promise<JobRecord> {
  const { pageSource, pacer, records, files, now = Date.now, sleep = defaultSleep } = parts;
  let record: JobRecord = { ...start };
  const save = (change: Partial<JobRecord>) => {
    record = { ...record, ...change, updatedAt: now() };
    // A job cancelled meanwhile stays cancelled, whatever its walk was doing.
    if (records.get(record.id)?.state === 'cancelled') return;
    records.put(record);
  };
  const writer = rowsWriter(record);
  const endpoint = record.request.list;
  const { id } = record.request;
  // Whatever was written past the last page noted is cut: that page is read again.
  await files.cut(record.id, record.bytes);
  save({ state: 'running', waitingUntil: null });

  while (!signal.aborted) {
    const first = record.pages === 0;
    if (!first && record.next === null) break;
    const paid = await pacer.take(record.client);
    if (!paid.ok) {
      const wait = Math.max(1, paid.retryAfterSeconds) * 1000;
      save({ state: 'waiting', waitingUntil: now() + wait });
      await sleep(wait, signal);
      if (!signal.aborted) save({ state: 'running', waitingUntil: null });
      continue;
    }
    const answer = await paidBy(paid.reservation, () =>
      pageSource.get(
        { endpoint, id, continuation: first ? undefined : record.next! },
        record.client,
      ),
    ).finally(() => paid.reservation.release());
    if (signal.aborted) break;
    if (answer.kind === 'problem') {
      if (answer.status === 429 || answer.status === 503) {
        const wait = Math.max(1, answer.retryAfterSeconds ?? 5) * 1000;
        save({ state: 'waiting', waitingUntil: now() + wait });
        await sleep(wait, signal);
        if (!signal.aborted) save({ state: 'running', waitingUntil: null });
        continue;
      }
      save({
        state: 'failed',
        problem: problem(answer.code, answer.detail, { status: answer.status }),
      });
      return record;
    }
    const data = (answer.data ?? JSON.parse(answer.page.body.toString('utf8'))) as AnyPageData;
    const text = (first ? writer.head : '') + writer.items(data.items, record.items === 0);
    await files.append(record.id, text);
    save({
      pages: record.pages + 1,
      items: record.items + data.items.length,
      lookups: record.lookups + (answer.cache === 'miss' ? 1 : 0),
      totalItems: first ? (data.info?.totalItems ?? null) : record.totalItems,
      next: data.continuation,
      bytes: record.bytes + Buffer.byteLength(text),
    });
    if (data.continuation === null) break;
  }
  if (signal.aborted) return record;

  if (record.request.kind === 'summary') await writeSummary(record, files);
  else {
    await files.append(record.id, writer.tail);
    await files.finish(record.id);
  }
  const bytes = (await files.resultSize(record.id)) ?? 0;
  save({ state: 'done', bytes, expiresAt: now() + parts.resultTtlMs, waitingUntil: null });
  return record;
}

/** Folds the job's rows, kept as JSON lines, into the list's summary (constant memory a row). */
async function writeSummary(record: JobRecord, files: JobFiles): Promise<void> {
  const fold = createSummaryFold(record.request.list);
  let batch: ListItem[] = [];
  let position = 1;
  for await (const line of files.partLines(record.id)) {
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
  await files.writeResult(record.id, `${JSON.stringify(summary)}\n`);
}
