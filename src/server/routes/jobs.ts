import type { Context, Handler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { JOB_ID_PATTERN, jobPath, jobRequestSchema, type JobRequest } from '../../shared/jobs.ts';
import type { AppEnv } from '../http/app-env.ts';
import { clientAddress } from '../http/client-address.ts';
import { JSON_TYPE, problemResponse, respond } from '../http/responses.ts';
import { attachmentHeader } from '../whole-list/export-formats.ts';
import { resultType, type JobService } from '../jobs/job-service.ts';
import type { JobStore } from '../jobs/job-store.ts';

// The jobs' HTTP routes (shared/jobs.ts says what a job is): create or find again, read,
// cancel, and the result, served from its file with a validator and byte ranges so that a
// download of any size can be resumed.

export interface JobRouteOptions {
  jobs: JobService;
  store: Pick<JobStore, 'resultSize' | 'readResult'>;
  trustProxy: boolean;
}

/** A request body larger than any job's request: `{list, id, kind, format}`. */
const MAX_BODY_BYTES = 4096;

const NOT_STORED = { 'Cache-Control': 'no-store' };

/**
 * The handler, answering 503 while the jobs' store cannot be reached (Redis down, with
 * replicas): the jobs themselves wait for it and go on.
 */
function storeBound(name: string, handler: Handler<AppEnv>): Handler<AppEnv> {
  return async (c, next) => {
    c.get('log').route = name;
    try {
      return await handler(c, next);
    } catch {
      return problemResponse(
        'shared_state_unavailable',
        'The jobs are kept in the deployment’s shared store, which does not answer now; ask again in a few seconds.',
        { instance: c.req.path, retryAfterSeconds: 5 },
      );
    }
  };
}

/** The job the path names, or the problem to answer. */
async function named(c: Parameters<Handler<AppEnv>>[0], jobs: JobService) {
  const id = c.req.param('job') ?? '';
  const job = JOB_ID_PATTERN.test(id) ? await jobs.get(id) : undefined;
  return job === undefined
    ? {
        ok: false as const,
        response: problemResponse('not_found', 'There is no such job.', { instance: c.req.path }),
      }
    : { ok: true as const, job };
}

export function createJob({ jobs, trustProxy }: JobRouteOptions): Handler<AppEnv> {
  // Read no further than a job's request can be: a client sending more is cut off there.
  const limit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: (c) =>
      problemResponse('content_too_large', `A job's request is at most ${MAX_BODY_BYTES} bytes.`, {
        instance: c.req.path,
      }),
  });
  return storeBound('job-create', async (c, next) => {
    let answer: Response | undefined;
    const refused = await limit(c, async () => {
      answer = await create(c);
    });
    return refused ?? answer ?? next();
  });

  async function create(c: Context<AppEnv>): Promise<Response> {
    const instance = c.req.path;
    const type = c.req.header('content-type') ?? '';
    if (!/^application\/json\b/i.test(type))
      return problemResponse(
        'invalid_request',
        'Send the job as JSON (Content-Type: application/json).',
        { instance },
      );
    let body: unknown;
    try {
      body = JSON.parse(await c.req.text());
    } catch {
      return problemResponse('invalid_request', 'The body is not JSON.', { instance });
    }
    const parsed = jobRequestSchema.safeParse(body);
    if (!parsed.success)
      return problemResponse(
        'invalid_request',
        'A job is {"list": "playlist" | "channel-videos" | "channel-playlists", "id": …, "kind": "summary" | "export" | "load-all", "format"?: "csv" | "json" | "txt"}.',
        { instance },
      );
    const request: JobRequest = parsed.data;
    const { job, created } = await jobs.create(request, clientAddress(c, trustProxy));
    return respond(created ? 202 : 200, JSON.stringify(job), {
      'Content-Type': JSON_TYPE,
      Location: jobPath(job.id),
      ...NOT_STORED,
    });
  }
}

export function readJob({ jobs }: JobRouteOptions): Handler<AppEnv> {
  return storeBound('job', async (c) => {
    const found = await named(c, jobs);
    if (!found.ok) return found.response;
    return respond(200, JSON.stringify(found.job), { 'Content-Type': JSON_TYPE, ...NOT_STORED });
  });
}

export function cancelJob({ jobs }: JobRouteOptions): Handler<AppEnv> {
  return storeBound('job-cancel', async (c) => {
    const found = await named(c, jobs);
    if (!found.ok) return found.response;
    const job = (await jobs.cancel(found.job.id)) ?? found.job;
    return respond(200, JSON.stringify(job), { 'Content-Type': JSON_TYPE, ...NOT_STORED });
  });
}

/** A single byte range of `size` (RFC 9110 §14.1.2); null: none asked, or not one we serve. */
function byteRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | null {
  const match = header?.match(/^bytes=(\d*)-(\d*)$/);
  if (!match || (match[1] === '' && match[2] === '')) return null;
  const [, from, to] = match;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

export function jobResult({ jobs, store }: JobRouteOptions): Handler<AppEnv> {
  return storeBound('job-result', async (c) => {
    const instance = c.req.path;
    const found = await named(c, jobs);
    if (!found.ok) return found.response;
    const record = await jobs.result(found.job.id);
    const size = record ? await store.resultSize(record.id) : null;
    if (record === undefined || size === null)
      return problemResponse(
        'job_not_done',
        found.job.state === 'done'
          ? 'The job’s result is no longer kept; ask for the job again.'
          : `The job is ${found.job.state}; its result comes when it is done.`,
        { instance, retryAfterSeconds: found.job.state === 'done' ? undefined : 5 },
      );
    // The result never changes once written: its job and its size name it.
    const etag = `"${record.id}-${size}"`;
    const { list, id, kind, format } = record.request;
    const headers: Record<string, string> = {
      ETag: etag,
      'Accept-Ranges': 'bytes',
      'Cache-Control': 'private, max-age=3600',
      'Content-Type': resultType(record),
      ...(kind === 'export'
        ? { 'Content-Disposition': attachmentHeader(`${id} ${list}`, format ?? 'csv') }
        : {}),
    };
    if (
      c.req
        .header('if-none-match')
        ?.split(',')
        .some((tag) => tag.trim() === etag)
    )
      return respond(304, null, headers);
    const ifRange = c.req.header('if-range');
    const range =
      ifRange === undefined || ifRange === etag ? byteRange(c.req.header('range'), size) : null;
    if (range === 'unsatisfiable')
      return problemResponse('range_not_satisfiable', `The result is ${size} bytes.`, {
        instance,
        headers: { 'Content-Range': `bytes */${size}` },
      });
    const { start, end } = range ?? { start: 0, end: size - 1 };
    const length = size === 0 ? 0 : end - start + 1;
    const body =
      c.req.method === 'HEAD' || length === 0 ? null : store.readResult(record.id, start, end);
    return new Response(body, {
      status: range ? 206 : 200,
      headers: {
        ...respondHeaders(headers),
        'Content-Length': String(length),
        ...(range ? { 'Content-Range': `bytes ${start}-${end}/${size}` } : {}),
      },
    });
  });
}

/** The security headers every answer carries (http/responses.ts), on a streamed one too. */
function respondHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(respond(200, null, headers).headers.entries());
}
