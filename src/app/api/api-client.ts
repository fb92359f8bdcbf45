import type { z } from 'zod';
import { endpoints } from '../../shared/endpoints.ts';
import { DEMO_ENTRIES_PATH, demoEntriesSchema } from '../../shared/explorer-api.ts';
import { PROBLEM_CONTENT_TYPE, problemSchema } from '../../shared/problem.ts';
import { ApiError, parseRetryAfter } from './api-error.ts';

// The app's only way to the explorer server (same origin). Every answer, and every problem
// body, is parsed with the shared schemas at this edge; the rest of the app sees parsed data.

async function readProblem(response: Response) {
  const type = response.headers.get('Content-Type') ?? '';
  if (!type.includes(PROBLEM_CONTENT_TYPE) && !type.includes('application/json')) return null;
  try {
    const parsed = problemSchema.safeParse(await response.json());
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

export async function getParsed<S extends z.ZodType>(
  url: string,
  schema: S,
  signal?: AbortSignal,
): Promise<z.infer<S>> {
  let response: Response;
  try {
    response = await fetch(url, { signal, headers: { Accept: 'application/json' } });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError('network', 'Could not reach the explorer server.', { cause: error });
  }
  if (!response.ok) {
    const problem = await readProblem(response);
    const retryAfter = problem?.retryAfter ?? parseRetryAfter(response.headers.get('Retry-After'));
    throw new ApiError('http', problem?.detail ?? `The server answered ${response.status}.`, {
      status: response.status,
      problem,
      retryAfter,
    });
  }
  let body: unknown;
  try {
    body = await response.json();
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError('malformed', 'The server sent an answer that is not valid JSON.', {
      cause: error,
    });
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    throw new ApiError('malformed', 'The server sent an answer the explorer cannot read.', {
      cause: parsed.error,
    });
  }
  return parsed.data;
}

function lookupUrl(path: string, id: string, continuation: string | null): string {
  const query = new URLSearchParams({ id });
  // Sent back byte for byte (spec §2.6); URLSearchParams encodes, the server decodes.
  if (continuation !== null) query.set('continuation', continuation);
  return `${path}?${query}`;
}

export function fetchPlaylistPage(id: string, continuation: string | null, signal?: AbortSignal) {
  const { path, pageSchema } = endpoints.playlist;
  return getParsed(lookupUrl(path, id, continuation), pageSchema, signal);
}

export function fetchChannelVideosPage(
  id: string,
  continuation: string | null,
  signal?: AbortSignal,
) {
  const { path, pageSchema } = endpoints['channel-videos'];
  return getParsed(lookupUrl(path, id, continuation), pageSchema, signal);
}

export function fetchChannelPlaylistsPage(
  id: string,
  continuation: string | null,
  signal?: AbortSignal,
) {
  const { path, pageSchema } = endpoints['channel-playlists'];
  return getParsed(lookupUrl(path, id, continuation), pageSchema, signal);
}

export function fetchDemoEntries(signal?: AbortSignal) {
  return getParsed(DEMO_ENTRIES_PATH, demoEntriesSchema, signal);
}
