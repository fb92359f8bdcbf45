import type { z } from 'zod';
import { endpoints, type EndpointName, type EndpointPage } from '../../shared/endpoints.ts';
import { DEMO_ENTRIES_PATH, demoEntriesSchema } from '../../shared/explorer-api.ts';
import { compileCheck, type Check } from '../../shared/page-check.ts';
import { PROBLEM_CONTENT_TYPE, problemSchema } from '../../shared/problem.ts';
import { retryAfterSeconds } from '../../shared/retry-after.ts';
import { ApiError } from './api-error.ts';

// The app's only way to the explorer server (same origin). Every answer, and every problem
// body, is checked against the shared schemas at this edge; the rest of the app sees checked
// data. (A checked page keeps any fields the schema does not name; the app reads only those
// it names.)

async function readProblem(response: Response) {
  const type = response.headers.get('Content-Type') ?? '';
  if (!type.includes(PROBLEM_CONTENT_TYPE) && !type.includes('application/json')) return null;
  try {
    // Members beyond the standard ones are kept: a refusal may point to the job that can do
    // the same work (shared/job-pointer.ts).
    const parsed = problemSchema.loose().safeParse(await response.json());
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * Sends a GET and answers the response when its status is a success; any other status, or no
 * answer at all, is thrown as an ApiError (with the problem document the server sent).
 */
export async function request(
  url: string,
  signal?: AbortSignal,
  accept = 'application/json',
  cache: RequestCache = 'default',
) {
  return answered(url, { signal, headers: { Accept: accept }, cache });
}

/** The response to `init` at `url` when its status is a success; an ApiError otherwise. */
async function answered(url: string, init: RequestInit): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch (error) {
    if (init.signal?.aborted) throw error;
    throw new ApiError('network', 'Could not reach the explorer server.', { cause: error });
  }
  if (!response.ok) {
    const problem = await readProblem(response);
    const retryAfter =
      problem?.retryAfter ?? retryAfterSeconds(response.headers.get('Retry-After'));
    throw new ApiError('http', problem?.detail ?? `The server answered ${response.status}.`, {
      status: response.status,
      problem,
      retryAfter,
    });
  }
  return response;
}

/** Reads a successful answer's JSON body, unchecked. */
async function getJson(url: string, signal?: AbortSignal): Promise<unknown> {
  return jsonOf(await request(url, signal), signal);
}

async function jsonOf(response: Response, signal?: AbortSignal): Promise<unknown> {
  try {
    return await response.json();
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError('malformed', 'The server sent an answer that is not valid JSON.', {
      cause: error,
    });
  }
}

/**
 * `body` read with `schema`. A page is first put to the yes/no check compiled from its schema
 * (page-check.ts), which reads it without copying it; zod runs only when that says no, to tell
 * what is wrong.
 */
function checked<T>(body: unknown, schema: z.ZodType<T>, check?: Check): T {
  if (check?.(body)) return body as T;
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new ApiError('malformed', 'The server sent an answer the explorer cannot read.', {
      cause: parsed.error,
    });
  }
  return parsed.data;
}

/** Reads an answer with `schema`. */
export async function getParsed<T>(
  url: string,
  schema: z.ZodType<T>,
  signal?: AbortSignal,
  check?: Check,
): Promise<T> {
  return checked(await getJson(url, signal), schema, check);
}

/**
 * A request that changes something on the server (a job started, cancelled): `body` as JSON,
 * the answer read with `schema`, failures as for a GET.
 */
export async function sendParsed<T>(
  method: 'POST' | 'DELETE',
  url: string,
  schema: z.ZodType<T>,
  body?: unknown,
): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const response = await answered(url, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return checked(await jsonOf(response), schema);
}

/** The URL of one page of a lookup (spec §4): the first without a continuation. */
function lookupUrl(endpoint: EndpointName, id: string, continuation: string | null): string {
  const query = new URLSearchParams({ id });
  // Sent back byte for byte (spec §2.6); URLSearchParams encodes, the server decodes.
  if (continuation !== null) query.set('continuation', continuation);
  return `${endpoints[endpoint].path}?${query}`;
}

/**
 * The endpoint table seen through its page types: the same objects, typed so that an index by a
 * generic endpoint name still knows which page its schema reads (checked here, once per entry).
 */
const pageSchemas: { readonly [K in EndpointName]: { pageSchema: z.ZodType<EndpointPage<K>> } } =
  endpoints;

/** Each endpoint's compiled page check, made when its first page arrives. */
const pageChecks = new Map<EndpointName, Check>();
function pageCheck(endpoint: EndpointName): Check {
  let check = pageChecks.get(endpoint);
  if (check === undefined) {
    check = compileCheck(pageSchemas[endpoint].pageSchema);
    pageChecks.set(endpoint, check);
  }
  return check;
}

/** One page of any lookup, checked against that endpoint's page schema. */
export async function fetchPage<E extends EndpointName>(
  endpoint: E,
  id: string,
  continuation: string | null,
  signal?: AbortSignal,
): Promise<EndpointPage<E>> {
  return checkedPage(endpoint, await fetchPageBody(endpoint, id, continuation, signal));
}

/**
 * One page of a lookup as it came, not yet checked: for a loop along the chain that sends the
 * next request while it checks this page (page-chain.ts). Nothing else may read it unchecked.
 */
export function fetchPageBody(
  endpoint: EndpointName,
  id: string,
  continuation: string | null,
  signal?: AbortSignal,
): Promise<unknown> {
  return getJson(lookupUrl(endpoint, id, continuation), signal);
}

/** A fetched page's body checked against its endpoint's page schema (an ApiError if not one). */
export function checkedPage<E extends EndpointName>(endpoint: E, body: unknown): EndpointPage<E> {
  return checked(body, pageSchemas[endpoint].pageSchema, pageCheck(endpoint));
}

/**
 * A page that arrived in another answer (a walk's stream), checked as a fetched page is: the
 * compiled check first, zod only to say what is wrong. Null when it is not the endpoint's page.
 */
export function readPage<E extends EndpointName>(
  endpoint: E,
  raw: unknown,
): EndpointPage<E> | null {
  if (pageCheck(endpoint)(raw)) return raw as EndpointPage<E>;
  return parsePage(endpoint, raw);
}

/** A page that arrived some other way (inside the HTML), read like a fetched one; null if unreadable. */
export function parsePage<E extends EndpointName>(
  endpoint: E,
  raw: unknown,
): EndpointPage<E> | null {
  const parsed = pageSchemas[endpoint].pageSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

export function fetchDemoEntries(signal?: AbortSignal) {
  return getParsed(DEMO_ENTRIES_PATH, demoEntriesSchema, signal);
}
