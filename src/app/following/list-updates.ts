import {
  feedUpdateLineSchema,
  updatesPath,
  UPDATES_MAX_LISTS,
  type JsonFeed,
} from '../../shared/feeds.ts';
import { abortableSleep } from '../../shared/abortable-sleep.ts';
import { backoffMs } from '../../shared/backoff.ts';
import type { Problem } from '../../shared/problem.ts';
import { ndjsonLines } from '../api/ndjson.ts';
import { request } from '../api/api-client.ts';
import { ApiError } from '../api/api-error.ts';
import type { FollowedList, Seen } from './follow-store.ts';
import {
  decodePositions,
  digestOf,
  digestsOf,
  encodePositions,
  splitDigests,
} from './seen-digest.ts';

// What is new in each followed list, read from the lists' own feeds on this server, many in one
// request (`/feeds/updates`): a channel's newest videos, a playlist's end. Each line says what
// that list cost. A refresh is paced by the server and keeps everything it was given: a list it
// says to wait for (a 429) is asked for again once the wait is over; an answer cut short keeps
// the lists that arrived and asks again for the rest after a doubling back-off; a refused
// catalogue key (the server's) stops the whole refresh, since every list would be refused alike.

export interface FeedEntry {
  videoId: string;
  title: string;
  /** The video on the platform. */
  watch: string;
  /** The explorer's view at it. */
  view: string | null;
  image: string | null;
  /** Position in the playlist; null for a channel's video. */
  position: number | null;
}

export interface ListUpdate {
  title: string;
  entries: FeedEntry[];
  /** Entries not seen at the last visit (all none on the first). */
  fresh: Set<string>;
  /** A playlist's videos seen last time, within what the feed still covers, and gone now. */
  gone: number;
}

const videoOf = (url: string) => URL.parse(url)?.searchParams.get('v') ?? url;
const positionOf = (url: string | undefined) => {
  const index = url ? URL.parse(url, 'http://x')?.searchParams.get('index') : null;
  return index ? Number(index) : null;
};

/** A JSON Feed's items as the view shows them. */
function entriesOf(feed: JsonFeed): FeedEntry[] {
  return feed.items.map((item) => ({
    videoId: videoOf(item.url),
    title: item.title ?? '',
    watch: item.url,
    view: item.external_url ?? null,
    image: item.image ?? null,
    position: positionOf(item.external_url),
  }));
}

/** The feed against what was seen: what is new, and what is gone. */
export function compare(
  entries: readonly FeedEntry[],
  title: string,
  seen: Seen | null,
): ListUpdate {
  if (seen === null) return { title, entries: [...entries], fresh: new Set(), gone: 0 };
  const before = new Set(splitDigests(seen.ids));
  const now = new Set(entries.map((entry) => digestOf(entry.videoId)));
  const fresh = new Set(
    entries.filter((e) => !before.has(digestOf(e.videoId))).map((e) => e.videoId),
  );
  // A playlist's feed covers its end: a video seen at a position the feed still covers, and
  // not there now, is gone; one that merely fell out of the window (new items pushed it) is not.
  const positions = entries.map((e) => e.position).filter((p): p is number => p !== null);
  const from = positions.length > 0 ? Math.min(...positions) : Infinity;
  const seenPositions = seen.positions === null ? [] : decodePositions(seen.positions);
  const gone = splitDigests(seen.ids).filter(
    (digest, at) => (seenPositions[at] ?? -Infinity) >= from && !now.has(digest),
  ).length;
  return { title, entries: [...entries], fresh, gone };
}

export const seenOf = (entries: readonly FeedEntry[]): Seen => {
  const positions = entries.map((entry) => entry.position);
  return {
    at: Date.now(),
    ids: digestsOf(entries.map((entry) => entry.videoId)),
    positions: positions.every((p) => p !== null) ? encodePositions(positions) : null,
  };
};

export type ListResult =
  { entries: FeedEntry[]; title: string; lookups: number } | { error: unknown };

export interface RefreshCallbacks {
  onList(list: FollowedList, result: ListResult): void;
  /** The refresh waits `seconds` before going on (null: going on); `why` says who asked. */
  onPause(seconds: number | null, why?: 'server' | 'backoff'): void;
  /** The server's catalogue key was refused: the refresh has stopped, nothing more is spent. */
  onRefused(problem: Problem | null): void;
}

export const REFUSED_KEY_CODE = 'upstream_credentials_rejected';
/** Times a list whose answer never came is asked for again before it counts as failed. */
export const MAX_ATTEMPTS = 5;
const FIRST_BACKOFF_SECONDS = 1;
/** Requests in flight at once: the browser keeps six connections to a host, pages need some. */
const REQUESTS_AT_ONCE = 3;

const nameOf = (list: Pick<FollowedList, 'kind' | 'id'>) => `${list.kind}:${list.id}`;

class KeyRefused extends Error {
  readonly problem: Problem | null;
  constructor(problem: Problem | null) {
    super('The catalogue refused the server’s key.');
    this.problem = problem;
  }
}

interface ChunkOutcome {
  /** Lists the server asked to wait for, and how long. */
  waiting: FollowedList[];
  wait: number;
  /** Lists the answer never reached (cut short, or no answer), and the error if there was one. */
  missing: FollowedList[];
  error: unknown;
}

/** One request for up to UPDATES_MAX_LISTS lists; every list it answers goes to `onList`. */
async function readChunk(
  chunk: readonly FollowedList[],
  signal: AbortSignal,
  onList: RefreshCallbacks['onList'],
): Promise<ChunkOutcome> {
  const byName = new Map(chunk.map((list) => [nameOf(list), list]));
  const outcome: ChunkOutcome = { waiting: [], wait: 0, missing: [], error: null };
  try {
    const response = await request(updatesPath(chunk), signal, 'application/x-ndjson', 'no-store');
    for await (const text of ndjsonLines(response.body!)) {
      let raw: unknown;
      try {
        raw = JSON.parse(text);
      } catch {
        continue;
      }
      const line = feedUpdateLineSchema.safeParse(raw);
      if (!line.success) {
        // A line this view cannot read: that list failed, and is not asked for again.
        const named = byName.get(String((raw as { list?: unknown } | null)?.list));
        if (named) {
          byName.delete(nameOf(named));
          const error = new ApiError(
            'malformed',
            'The server sent a feed the explorer cannot read.',
          );
          onList(named, { error });
        }
        continue;
      }
      const list = byName.get(line.data.list);
      if (list === undefined) continue;
      if ('feed' in line.data) {
        byName.delete(line.data.list);
        const entries = entriesOf(line.data.feed);
        onList(list, { entries, title: line.data.feed.title, lookups: line.data.lookups });
        continue;
      }
      const { problem } = line.data;
      if (problem.code === REFUSED_KEY_CODE) throw new KeyRefused(problem);
      byName.delete(line.data.list);
      if (problem.status === 429) {
        outcome.waiting.push(list);
        outcome.wait = Math.max(outcome.wait, problem.retryAfter ?? 5);
      } else {
        const error = new ApiError('http', problem.detail, {
          status: problem.status,
          problem,
          retryAfter: problem.retryAfter ?? null,
        });
        onList(list, { error });
      }
    }
  } catch (error) {
    if (error instanceof KeyRefused || signal.aborted) throw error;
    if (error instanceof ApiError && error.code === REFUSED_KEY_CODE)
      throw new KeyRefused(error.problem);
    if (error instanceof ApiError && error.status === 429) {
      outcome.waiting.push(...byName.values());
      outcome.wait = Math.max(outcome.wait, error.retryAfter ?? 5);
      return outcome;
    }
    // A request the server refused as malformed will be refused again: those lists fail now.
    if (error instanceof ApiError && error.isClientError) {
      for (const list of byName.values()) onList(list, { error });
      return outcome;
    }
    outcome.error = error;
  }
  // Lines the answer never held (cut short, or no answer at all): asked for again, later.
  outcome.missing.push(...byName.values());
  return outcome;
}

/**
 * Reads every list's feed through `/feeds/updates`, up to UPDATES_MAX_LISTS a request and a few
 * requests at once, each list shown as its line arrives.
 */
export async function refreshAll(
  lists: readonly FollowedList[],
  outer: AbortSignal,
  { onList, onPause, onRefused }: RefreshCallbacks,
  /** The first wait after a cut answer; each next one doubles it. */
  firstBackoffSeconds = FIRST_BACKOFF_SECONDS,
): Promise<void> {
  // Its own signal too, so that a refused key stops the requests still running beside it.
  const stop = new AbortController();
  if (outer.aborted) return;
  outer.addEventListener('abort', () => stop.abort(), { once: true, signal: stop.signal });
  const { signal } = stop;
  let pending = [...lists];
  const attempts = new Map<string, number>();
  let cuts = 0;
  try {
    while (pending.length > 0 && !signal.aborted) {
      const chunks: FollowedList[][] = [];
      for (let at = 0; at < pending.length; at += UPDATES_MAX_LISTS)
        chunks.push(pending.slice(at, at + UPDATES_MAX_LISTS));
      const waiting: FollowedList[] = [];
      const missing: FollowedList[] = [];
      let wait = 0;
      const work = async () => {
        for (let chunk = chunks.shift(); chunk && !signal.aborted; chunk = chunks.shift()) {
          const outcome = await readChunk(chunk, signal, onList);
          waiting.push(...outcome.waiting);
          wait = Math.max(wait, outcome.wait);
          for (const list of outcome.missing) {
            const tries = (attempts.get(nameOf(list)) ?? 0) + 1;
            attempts.set(nameOf(list), tries);
            if (tries < MAX_ATTEMPTS) missing.push(list);
            else
              onList(list, {
                error:
                  outcome.error ??
                  new ApiError('network', 'The server’s answer stopped before this list.'),
              });
          }
        }
      };
      await Promise.all(Array.from({ length: REQUESTS_AT_ONCE }, work));
      if (signal.aborted) return;
      pending = [...waiting, ...missing];
      if (pending.length === 0) break;
      // The server's own wait when it gave one; else a back-off that doubles with each cut.
      const seconds =
        waiting.length > 0
          ? wait || 1
          : backoffMs(++cuts, { firstMs: firstBackoffSeconds * 1000, maxMs: 30_000 }) / 1000;
      onPause(seconds, waiting.length > 0 ? 'server' : 'backoff');
      await abortableSleep(seconds * 1000, signal);
      onPause(null);
    }
  } catch (error) {
    if (error instanceof KeyRefused) {
      stop.abort();
      onRefused(error.problem);
      return;
    }
    if (!signal.aborted) throw error;
  } finally {
    stop.abort();
  }
}
