import type { Context, Handler } from 'hono';
import { endpoints } from '../../shared/endpoints.ts';
import { JOB_POINTER_CODES, jobPointer, type JobPointer } from '../../shared/job-pointer.ts';
import type { JobKind } from '../../shared/jobs.ts';
import { isProblemCode, type ProblemCode } from '../../shared/problem-codes.ts';
import {
  EXPORT_TYPES,
  exportFormats,
  listKindSchema,
  RANGE_BOUND_PATTERN,
  type ExportFormat,
  type ListKind,
  type WalkCost,
  type WalkEvent,
  type WalkProgress,
} from '../../shared/whole-list.ts';
import type { AppEnv } from '../http/app-env.ts';
import type { ChannelTitles } from '../rendering/channel-titles.ts';
import { clientAddress } from '../http/client-address.ts';
import type { QueryValue } from '../http/query.ts';
import { JSON_TYPE, problemResponse, respond } from '../http/responses.ts';
import { SECURITY_HEADERS } from '../http/security-headers.ts';
import type { PageSource } from '../pages/page-source.ts';
import type { ClientShares } from '../quota/client-shares.ts';
import type { QuotaGuard } from '../quota/quota-guard.ts';
import { attachmentHeader, exportWriter } from '../whole-list/export-formats.ts';
import { createSummaryFold } from '../whole-list/list-summary.ts';
import type {
  ListWalk,
  WalkedPage,
  WalkEnd,
  WalkPayment,
  WalkRegistry,
} from '../whole-list/list-walk.ts';
import { walkCost, type CostAnswer } from '../whole-list/walk-cost.ts';
import { payForWalk, type PaymentRefusal } from '../whole-list/walk-payment.ts';
import {
  createSpool,
  createSpoolRoom,
  readWalk,
  readWithinMs,
  SPOOL_LIMITS,
  type Spool,
  type SpoolLimits,
  type WalkRead,
} from '../whole-list/walk-spool.ts';

// Answers about whole lists (docs/architecture.md, "Whole lists"): a summary, an export in
// three formats, the walk as a stream of pages for the app's "Load all", and what a walk would
// cost. Every refusal (a bad list or ID, an unknown list, a quota that cannot cover the walk, a
// client already running its walks) is a problem document sent before any byte of a body, with
// the lookups' statuses; one that a job would get past points to that job (shared/job-pointer.ts).
// An export answers a complete file or a refusal: a playlist's is paid for before it answers,
// a channel's is read whole first (whole-list/walk-spool.ts). Only a failure of the upstream or
// of the explorer after the first byte still cuts a stream, so that a client can tell (below).

export interface WholeListOptions {
  pageSource: Pick<PageSource, 'get' | 'fresh'>;
  quota: Pick<QuotaGuard, 'stats' | 'secondsUntilRoomFor' | 'reserve'>;
  /** Each client's share of the hour, which a walk reserves from as it does from the quota. */
  shares: Pick<ClientShares, 'reserve' | 'room' | 'perClient' | 'secondsUntilRoomFor'>;
  walks: WalkRegistry;
  channelTitles: Pick<ChannelTitles, 'get'>;
  trustProxy: boolean;
  /** A streamed answer whose reader takes nothing for this long is cut (HTTP_IDLE_TIMEOUT_MS). */
  stallMs?: number;
  /** Jobs are served (POST /api/jobs): a refusal that a job would get past points to it. */
  jobs?: boolean;
}

const DEFAULT_STALL_MS = 30_000;

type Target = { ok: true; list: ListKind; id: string } | { ok: false; response: Response };

/** The `{list}/{id}` of a whole-list path, checked: unknown kinds are 404, bad IDs 400. */
function readTarget(c: Context<AppEnv>): Target {
  const instance = c.req.path;
  const params = c.get('params');
  const list = listKindSchema.safeParse(params?.list);
  if (!list.success)
    return {
      ok: false,
      response: problemResponse(
        'not_found',
        'No such kind of list: use playlist, channel-videos or channel-playlists.',
        { instance },
      ),
    };
  // The router has decoded the segment once; a second decode would read `%2550…` as `P…`.
  const id = params?.id ?? '';
  if (!endpoints[list.data].idSchema.safeParse(id).success)
    return {
      ok: false,
      response: problemResponse(
        'invalid_id',
        list.data === 'playlist' ? 'That is not a playlist ID.' : 'That is not a channel ID.',
        { instance },
      ),
    };
  return { ok: true, list: list.data, id };
}

const NOT_STORED = { 'Cache-Control': 'no-store' };

const POINTED: ReadonlySet<string> = new Set(JOB_POINTER_CODES);

/** A problem, with the pointer to the job that can do the work when `code` is one a job gets past. */
function refusal(
  code: ProblemCode,
  detail: string,
  options: {
    instance: string;
    retryAfterSeconds?: number;
    extensions?: Record<string, unknown>;
    pointer: JobPointer | undefined;
  },
): Response {
  const { pointer, extensions, ...rest } = options;
  return problemResponse(code, detail, {
    ...rest,
    extensions:
      pointer !== undefined && POINTED.has(code) ? { ...extensions, job: pointer } : extensions,
  });
}

/** The job that does what this request asked for, when jobs are served. */
function pointerFor(
  options: WholeListOptions,
  list: ListKind,
  id: string,
  kind: JobKind,
  format?: ExportFormat,
): JobPointer | undefined {
  if (options.jobs !== true) return undefined;
  return jobPointer(format === undefined ? { list, id, kind } : { list, id, kind, format });
}

/** The query as the operation declared it, or the 400 that refuses it. */
function readQuery(
  c: Context<AppEnv>,
): { ok: true; values: Map<string, QueryValue> } | { ok: false; response: Response } {
  const query = c.get('query');
  if (query.ok) return query;
  return {
    ok: false,
    response: problemResponse(query.code, query.detail, { instance: c.req.path }),
  };
}

/** `?from=A&to=B`: 1-based, inclusive, A ≤ B; either may be left out. */
function readRange(
  c: Context<AppEnv>,
): { ok: true; range: { from?: number; to?: number } } | { ok: false; response: Response } {
  const query = readQuery(c);
  if (!query.ok) return query;
  const from = query.values.get('from');
  const to = query.values.get('to');
  const bad = [from, to].some(
    (bound) =>
      bound !== undefined && (bound.value === null || !RANGE_BOUND_PATTERN.test(bound.value)),
  );
  const range = {
    from: from?.value == null ? undefined : Number(from.value),
    to: to?.value == null ? undefined : Number(to.value),
  };
  if (bad || (range.from !== undefined && range.to !== undefined && range.from > range.to))
    return {
      ok: false,
      response: problemResponse(
        'invalid_range',
        'A range is two whole numbers from 1, `from` no later than `to` (as in ?from=20&to=60).',
        { instance: c.req.path },
      ),
    };
  return { ok: true, range };
}

/**
 * The checks every whole-list answer makes before it reads a page: the first page (its problem
 * answers as the lookup's would), what the walk costs against the hour's quota, and the
 * client's running walks. On success the walk is open and must be released.
 */
async function startWalk(
  c: Context<AppEnv>,
  options: WholeListOptions,
  list: ListKind,
  id: string,
  pointer: JobPointer | undefined,
  upTo?: number,
): Promise<
  | {
      ok: true;
      walk: ListWalk;
      priced: Extract<CostAnswer, { ok: true }>;
      /** What pays for the walk's pages; released with the walk, or sooner by the caller. */
      payment: WalkPayment;
    }
  | { ok: false; response: Response }
> {
  const client = clientAddress(c, options.trustProxy);
  const instance = c.req.path;
  const priced = await walkCost(options, list, id, client, upTo);
  if (!priced.ok) {
    const { code, detail, retryAfterSeconds } = priced.answer;
    return {
      ok: false,
      response: refusal(code, detail, { instance, retryAfterSeconds, pointer }),
    };
  }
  const { cost } = priced;
  if (!cost.affordable) {
    const reason = cost.limitedBy === 'share' ? ('share' as const) : ('quota_exhausted' as const);
    const refused = {
      reason,
      retryAfterSeconds: cost.retryAfter,
      shareLeft: cost.share?.remaining,
    };
    return { ok: false, response: walkRefusal(instance, cost, refused, pointer) };
  }
  const opened = await options.walks.open(list, id, client, {
    signal: c.req.raw.signal,
    first: priced.first,
    until: upTo,
  });
  if (!opened.ok) {
    const response =
      opened.reason === 'client'
        ? refusal(
            'too_many_walks',
            'This address is already reading two whole lists; wait for one to finish.',
            { instance, retryAfterSeconds: opened.retryAfterSeconds, pointer },
          )
        : refusal(
            'walks_busy',
            `The server is reading as many whole lists as it may at once, and this one waited in line (place ${opened.position}); ask again in about ${opened.retryAfterSeconds} s.`,
            {
              instance,
              retryAfterSeconds: opened.retryAfterSeconds,
              extensions: { position: opened.position },
              pointer,
            },
          );
    return { ok: false, response };
  }
  // What it was quoted is reserved before any byte of the answer: once accepted, it completes.
  const paid = await payForWalk(options, client, cost.lookups);
  if (!paid.ok) {
    opened.walk.release();
    return { ok: false, response: walkRefusal(instance, cost, paid, pointer) };
  }
  opened.walk.pay(paid.payment);
  return { ok: true, walk: opened.walk, priced, payment: paid.payment };
}

/** Why a walk cannot be paid for now: the client's share, the hour, a pause, or no shared count. */
function walkRefusal(
  instance: string,
  cost: WalkCost,
  why: {
    reason: PaymentRefusal['reason'];
    retryAfterSeconds: number | undefined;
    shareLeft: number | undefined;
  },
  pointer: JobPointer | undefined,
): Response {
  const { reason, retryAfterSeconds } = why;
  if (reason === 'unavailable')
    return problemResponse(
      'shared_state_unavailable',
      'The deployment’s shared quota cannot be reached, so the walk cannot reserve its lookups.',
      { instance, retryAfterSeconds },
    );
  const needs =
    cost.lookups === null
      ? 'Reading the whole list needs upstream lookups'
      : `Reading the whole list needs ${cost.lookups} more upstream lookups`;
  if (reason === 'share') {
    const shareLeft = why.shareLeft ?? 0;
    return refusal(
      'share_exhausted',
      `${needs}, and this address has ${shareLeft} left of its share of the window.`,
      { instance, retryAfterSeconds, extensions: { cost, shareLeft }, pointer },
    );
  }
  const detail =
    cost.lookups === null && reason === 'quota_exhausted'
      ? 'The window’s upstream quota is spent; the walk would not get past its first page.'
      : `${needs} and ${cost.quota.remaining} are left in this window.`;
  return refusal(reason, detail, { instance, retryAfterSeconds, extensions: { cost }, pointer });
}

/**
 * HEAD: everything a GET would check (the list, the cost, the client's walks) and its headers,
 * without the walk, which only the body needs; the walk opened for the checks is released.
 */
function releasedForHead(c: Context<AppEnv>, walk: ListWalk): boolean {
  if (c.req.method !== 'HEAD') return false;
  walk.release();
  return true;
}

/** The list's name for a file: a playlist's title, a channel's name when the server knows it. */
function listName(options: WholeListOptions, list: ListKind, id: string, title: string | null) {
  if (title !== null) return title;
  const channel = list === 'playlist' ? undefined : options.channelTitles.get(id);
  const base = channel ?? id;
  return list === 'channel-videos'
    ? `${base} - videos`
    : list === 'channel-playlists'
      ? `${base} - playlists`
      : base;
}

export function summaryRoute(options: WholeListOptions): Handler<AppEnv> {
  return async (c) => {
    c.get('log').route = 'api:summary';
    const target = readTarget(c);
    if (!target.ok) return target.response;
    const { list, id } = target;
    const range = readRange(c);
    if (!range.ok) return range.response;
    // A job sums the whole list: it can stand in for a summary without a range only.
    const whole = range.range.from === undefined && range.range.to === undefined;
    const pointer = whole ? pointerFor(options, list, id, 'summary') : undefined;
    const started = await startWalk(c, options, list, id, pointer, range.range.to);
    if (!started.ok) return started.response;
    const { walk, priced } = started;
    const headers = { 'Content-Type': JSON_TYPE, ...NOT_STORED };
    if (releasedForHead(c, walk)) return respond(200, null, headers);
    const fold = createSummaryFold(list, range.range);
    try {
      // The walk ends after the page holding the range's end (it was opened `until` there).
      // Nothing is sent until it has: a walk too slow for that ends the summary incomplete.
      const withinMs = readWithin(options);
      const read = await readWalk(
        walk,
        (walked) => void fold.add(walked.page.items, walked.firstPosition),
        withinMs,
      );
      const end = read.kind === 'end' ? read.end : tooLongToWait(withinMs);
      const progress = walk.progress();
      const summary = fold.result({
        id,
        title: priced.title,
        complete: end.complete,
        stoppedBy: end.stoppedBy && withoutStatus(end.stoppedBy),
        pages: progress.pages,
        totalItems: progress.totalItems,
      });
      return respond(200, JSON.stringify(summary), headers);
    } finally {
      walk.release();
    }
  };
}

/** How long a walk may read before the first byte of its answer (walk-spool.ts). */
const readWithin = (options: WholeListOptions) => readWithinMs(options.stallMs ?? DEFAULT_STALL_MS);

/** How a walk ends that had not reached the list's end when its answer could wait no more. */
const tooLongToWait = (withinMs: number): WalkEnd => ({
  complete: false,
  stoppedBy: {
    status: 409,
    code: 'list_too_long',
    detail: `The list was still being read after ${Math.round(withinMs / 1000)} s, as long as an answer waits for its first byte; a job reads it whole.`,
  },
});

const withoutStatus = ({
  code,
  detail,
  retryAfter,
}: {
  code: string;
  detail: string;
  retryAfter?: number;
}) => (retryAfter === undefined ? { code, detail } : { code, detail, retryAfter });

export function walkCostRoute(options: WholeListOptions): Handler<AppEnv> {
  return async (c) => {
    c.get('log').route = 'api:walk-cost';
    const target = readTarget(c);
    if (!target.ok) return target.response;
    const query = readQuery(c);
    if (!query.ok) return query.response;
    const priced = await walkCost(
      options,
      target.list,
      target.id,
      clientAddress(c, options.trustProxy),
    );
    if (!priced.ok) {
      const { code, detail, retryAfterSeconds } = priced.answer;
      return problemResponse(code, detail, { instance: c.req.path, retryAfterSeconds });
    }
    return respond(200, JSON.stringify(priced.cost), { 'Content-Type': JSON_TYPE, ...NOT_STORED });
  };
}

/**
 * A body that reads the walk one page at a time as the client takes it (pull: a slow reader
 * slows the walk, nothing piles up) and releases the walk when the client goes away. When the
 * walk ends before the list does and `cutOnIncomplete`, the connection is cut without the
 * chunked body's last chunk: every HTTP client then reports the body as incomplete (curl exits
 * with 18, fetch rejects while reading), and the text lacks its end (a JSON array its `]`).
 */
function walkBody(
  c: Context<AppEnv>,
  walk: ListWalk,
  parts: {
    head: string;
    page: (walked: WalkedPage, first: boolean) => string;
    tail: (
      end: {
        complete: boolean;
        stoppedBy: { code: string; detail: string; retryAfter?: number } | null;
      },
      progress: WalkProgress,
    ) => string;
    cutOnIncomplete: boolean;
    /** How long the reader may go without taking more before the stream is cut. */
    stallMs: number;
  },
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let first = true;
  let headSent = false;
  // A reader that stops taking the bytes (a stalled client, its window shut) would hold the
  // walk and its slot for as long as the connection lasts: after `stallMs` without asking for
  // more, the stream is cut and the walk released.
  let stalled: NodeJS.Timeout | undefined;
  const watch = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    stalled = setTimeout(() => {
      walk.release();
      cut(c, controller, 'the reader stopped reading');
    }, parts.stallMs);
    stalled.unref();
  };
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        clearTimeout(stalled);
        try {
          // Until something is sent: a page may add no text (an empty list's only page in a URL
          // list), and a stream with no room ahead is pulled again only after an enqueue.
          for (;;) {
            const step = await walk.next();
            if (step.done) {
              const { end } = step;
              if (!end.complete && parts.cutOnIncomplete) {
                cut(c, controller, end.stoppedBy.detail);
                return;
              }
              const text =
                (headSent ? '' : parts.head) +
                parts.tail(
                  {
                    complete: end.complete,
                    stoppedBy: end.stoppedBy && withoutStatus(end.stoppedBy),
                  },
                  walk.progress(),
                );
              if (text !== '') controller.enqueue(encoder.encode(text));
              controller.close();
              return;
            }
            const text = (headSent ? '' : parts.head) + parts.page(step.value, first);
            headSent = true;
            first = false;
            if (text !== '') {
              controller.enqueue(encoder.encode(text));
              watch(controller);
              return;
            }
          }
        } catch (error) {
          walk.release();
          cut(c, controller, error instanceof Error ? error.message : 'the walk failed');
        }
      },
      cancel() {
        clearTimeout(stalled);
        walk.release();
      },
    },
    { highWaterMark: 0 },
  );
}

/** Ends a response so that the client sees it incomplete (see walkBody). */
function cut(
  c: Context<AppEnv>,
  controller: ReadableStreamDefaultController<Uint8Array>,
  why: string,
) {
  const outgoing = c.env?.outgoing;
  if (outgoing !== undefined) {
    // Destroying the socket leaves the chunked body without its terminating chunk; the adapter
    // sees the socket close and cancels the stream, which releases the walk.
    outgoing.destroy();
    controller.close();
  } else {
    // In-process (app.request in tests): the reader's read rejects.
    controller.error(new Error(`incomplete: ${why}`));
  }
}

/**
 * The export's whole file, read into `spool` before any byte is sent: the walk ends at the
 * chain's end (open still, to be released once the file is sent), or it stops early, or the
 * file outgrows the spool, or the answer can wait no more (then the walk is released).
 */
async function spoolWalk(
  walk: ListWalk,
  spool: Spool,
  writer: ReturnType<typeof exportWriter>,
  withinMs: number,
): Promise<WalkRead> {
  const full = spool.add(writer.head, 0);
  if (full !== undefined) return { kind: 'stopped', reason: full };
  let written = false;
  const read = await readWalk(
    walk,
    (walked) => {
      const text = writer.items(walked.page.items, !written);
      written ||= walked.page.items.length > 0;
      return spool.add(text, walk.progress().pages);
    },
    withinMs,
  );
  if (read.kind !== 'end' || !read.end.complete) return read;
  const tail = spool.add(writer.tail, walk.progress().pages);
  return tail === undefined ? read : { kind: 'stopped', reason: tail };
}

/** Why a spooled export was not answered, before its first byte. */
function spoolRefusal(
  instance: string,
  read: WalkRead,
  walk: ListWalk,
  limits: SpoolLimits & { withinMs: number },
  pointer: JobPointer | undefined,
): Response {
  const progress = walk.progress();
  const extensions = { progress };
  const kept = `${progress.pages} pages (${progress.items} items) were read, and are kept in the cache`;
  if (read.kind === 'late')
    return refusal(
      'list_too_long',
      `The list was still being read after ${Math.round(limits.withinMs / 1000)} s, as long as an export waits for its first byte; ${kept}. Export it as a job.`,
      { instance, extensions, pointer },
    );
  if (read.kind === 'stopped') {
    if (read.reason === 'room')
      return refusal(
        'walks_busy',
        `The server holds as many exports as it may at once; ${kept}. Ask again shortly, or export it as a job.`,
        { instance, retryAfterSeconds: SPOOL_BUSY_SECONDS, extensions, pointer },
      );
    return refusal(
      'list_too_long',
      `The list is longer than an export reads before it answers (${limits.maxPages} pages, ${Math.floor(limits.maxBytes / 2 ** 20)} MiB); ${kept}. Export it as a job.`,
      { instance, extensions, pointer },
    );
  }
  const stop = read.end.stoppedBy;
  if (stop === null)
    return refusal('internal_error', 'The export ended without its file.', { instance, pointer });
  // The reader went away: nobody reads this answer.
  if (stop.code === 'walk_stopped') return respond(499, null, NOT_STORED);
  const where = `The walk stopped before the list’s end; ${kept}`;
  // A page refused part way (a continuation the catalogue no longer takes, a list gone) is
  // the upstream's doing, not the request's.
  if (!isProblemCode(stop.code) || stop.status === 400 || stop.status === 404)
    return refusal('upstream_bad_response', `${where}: ${stop.detail}`, {
      instance,
      extensions,
      pointer,
    });
  return refusal(stop.code, `${where}: ${stop.detail}`, {
    instance,
    retryAfterSeconds: stop.retryAfter,
    extensions,
    pointer,
  });
}

/** How long a client whose export found no room is asked to wait. */
const SPOOL_BUSY_SECONDS = 5;

/**
 * A spooled export's file as a body, a chunk at a time as the client takes it; the spool's
 * room and the walk (still counted for its client and in the walks' slots) are given back when
 * it has been sent, or when the client goes away or stops reading (see walkBody).
 */
function spoolBody(
  c: Context<AppEnv>,
  walk: ListWalk,
  spool: Spool,
  stallMs: number,
): ReadableStream<Uint8Array> {
  let stalled: NodeJS.Timeout | undefined;
  const done = () => {
    clearTimeout(stalled);
    spool.drop();
    walk.release();
  };
  const watch = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    clearTimeout(stalled);
    stalled = setTimeout(() => {
      done();
      cut(c, controller, 'the reader stopped reading');
    }, stallMs);
    stalled.unref();
  };
  return new ReadableStream<Uint8Array>(
    {
      start: watch,
      pull(controller) {
        const chunk = spool.take();
        if (chunk === undefined) {
          done();
          controller.close();
          return;
        }
        controller.enqueue(chunk);
        watch(controller);
      },
      cancel: done,
    },
    { highWaterMark: 0 },
  );
}

export function exportRoute(options: WholeListOptions): Handler<AppEnv> {
  // What every export of this server being read or sent holds, together.
  const spoolRoom = createSpoolRoom(SPOOL_LIMITS.totalBytes);
  return async (c) => {
    c.get('log').route = 'api:export';
    const format = c.get('params')?.format as ExportFormat | undefined;
    if (format === undefined || !exportFormats.includes(format))
      return problemResponse('not_found', 'Exports are .csv, .json or .txt files.', {
        instance: c.req.path,
      });
    const target = readTarget(c);
    if (!target.ok) return target.response;
    const { list, id } = target;
    const query = readQuery(c);
    if (!query.ok) return query.response;
    const bom = query.values.get('bom')?.value;
    if (bom !== undefined && (format !== 'csv' || (bom !== '0' && bom !== '1')))
      return problemResponse('invalid_request', 'A CSV export takes `bom=1` (or `bom=0`).', {
        instance: c.req.path,
      });
    const pointer = pointerFor(options, list, id, 'export', format);
    const started = await startWalk(c, options, list, id, pointer);
    if (!started.ok) return started.response;
    const { walk, priced, payment } = started;
    const headers = {
      ...SECURITY_HEADERS,
      'Content-Type': EXPORT_TYPES[format],
      'Content-Disposition': attachmentHeader(listName(options, list, id, priced.title), format),
      ...NOT_STORED,
    };
    if (releasedForHead(c, walk)) return new Response(null, { status: 200, headers });
    const writer = exportWriter(format, list, id, { bom: bom === '1' });
    // A list of unknown length could not be paid for up front: it is read whole before the
    // answer, and refused rather than cut when it cannot be (walk-spool.ts).
    if (priced.cost.lookups === null) {
      const spool = createSpool(SPOOL_LIMITS, spoolRoom);
      const withinMs = readWithin(options);
      const read = await spoolWalk(walk, spool, writer, withinMs);
      if (read.kind === 'end' && read.end.complete) {
        // The whole file is here: what the walk had reserved and not spent goes back now.
        payment.release();
        return new Response(spoolBody(c, walk, spool, options.stallMs ?? DEFAULT_STALL_MS), {
          status: 200,
          headers: { ...headers, 'Content-Length': String(spool.bytes) },
        });
      }
      spool.drop();
      walk.release();
      return spoolRefusal(c.req.path, read, walk, { ...SPOOL_LIMITS, withinMs }, pointer);
    }
    // Whether an item has been written yet: a page may hold none (JSON's separators).
    let written = false;
    const body = walkBody(c, walk, {
      head: writer.head,
      page: (walked) => {
        const text = writer.items(walked.page.items, !written);
        written ||= walked.page.items.length > 0;
        return text;
      },
      tail: () => writer.tail,
      cutOnIncomplete: true,
      stallMs: options.stallMs ?? DEFAULT_STALL_MS,
    });
    return new Response(body, { status: 200, headers });
  };
}

export function walkRoute(options: WholeListOptions): Handler<AppEnv> {
  return async (c) => {
    c.get('log').route = 'api:walk';
    const target = readTarget(c);
    if (!target.ok) return target.response;
    const query = readQuery(c);
    if (!query.ok) return query.response;
    const { list, id } = target;
    const started = await startWalk(
      c,
      options,
      list,
      id,
      pointerFor(options, list, id, 'load-all'),
    );
    if (!started.ok) return started.response;
    const { walk, priced } = started;
    const headers = {
      ...SECURITY_HEADERS,
      'Content-Type': 'application/x-ndjson; charset=utf-8',
      ...NOT_STORED,
    };
    if (releasedForHead(c, walk)) return new Response(null, { status: 200, headers });
    const line = (event: WalkEvent) => `${JSON.stringify(event)}\n`;
    const body = walkBody(c, walk, {
      head: line({ type: 'start', cost: priced.cost }),
      // The page's own bytes, spliced in: no parse and print per page.
      page: (walked) =>
        `{"type":"page","param":${JSON.stringify(walked.param)},"page":${walked.body.toString('utf8')},"progress":${JSON.stringify(walk.progress())}}\n`,
      tail: (end, progress) => line({ type: 'end', ...end, progress }),
      // The stream says how it ended in its last line; a stream without one was cut.
      cutOnIncomplete: false,
      stallMs: options.stallMs ?? DEFAULT_STALL_MS,
    });
    return new Response(body, { status: 200, headers });
  };
}
