import {
  feedUpdateLineSchema,
  updatesPath,
  UPDATES_MAX_LISTS,
  type JsonFeed,
} from '../../shared/feeds.ts';
import { ndjsonLines } from '../api/ndjson.ts';
import { request } from '../api/api-client.ts';
import { ApiError } from '../api/api-error.ts';
import type { FollowedList, Seen } from './follow-store.ts';

// What is new in each followed list, read from the lists' own feeds on this server, many in
// one request (`/feeds/updates`): a channel's newest videos, a playlist's end (the last added
// first). The server reads a list at most once per freshness window whoever asks, and a long
// playlist's end without walking it again (feeds/feed-source.ts), so a refresh costs at most a
// lookup per list, none for lists read lately, and says what each cost. When the server says
// to wait (this browser's allowance, the hour's quota), the lists it held back are asked for
// again after the wait, so following 500 lists pages its refreshes instead of failing.

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
  const before = new Set(seen.items.map((item) => item.id));
  const now = new Set(entries.map((entry) => entry.videoId));
  const fresh = new Set(entries.filter((e) => !before.has(e.videoId)).map((e) => e.videoId));
  // A playlist's feed covers its end: a video seen at a position the feed still covers, and
  // not there now, is gone; one that merely fell out of the window (new items pushed it) is not.
  const positions = entries.map((e) => e.position).filter((p): p is number => p !== null);
  const from = positions.length > 0 ? Math.min(...positions) : Infinity;
  const gone = seen.items.filter(
    (item) => item.position !== null && item.position >= from && !now.has(item.id),
  ).length;
  return { title, entries: [...entries], fresh, gone };
}

export const seenOf = (entries: readonly FeedEntry[]): Seen => ({
  at: Date.now(),
  items: entries.map((entry) => ({ id: entry.videoId, position: entry.position })),
});

export interface RefreshCallbacks {
  onList(
    list: FollowedList,
    result: { entries: FeedEntry[]; title: string; lookups: number } | { error: unknown },
  ): void;
  /** The server asked to wait `seconds` before more (null: going on). */
  onPause(seconds: number | null): void;
}

const nameOf = (list: Pick<FollowedList, 'kind' | 'id'>) => `${list.kind}:${list.id}`;

/**
 * Reads every list's feed through `/feeds/updates`, up to UPDATES_MAX_LISTS a request, each
 * list shown as its line arrives. A list the server says to wait for (a 429: this browser's
 * allowance, the hour's quota) is asked for again once the wait is over, with the others that
 * had to wait; the rest are shown meanwhile.
 */
export async function refreshAll(
  lists: readonly FollowedList[],
  signal: AbortSignal,
  { onList, onPause }: RefreshCallbacks,
): Promise<void> {
  let pending = [...lists];
  while (pending.length > 0 && !signal.aborted) {
    const waiting: FollowedList[] = [];
    let wait = 0;
    for (let at = 0; at < pending.length && !signal.aborted; at += UPDATES_MAX_LISTS) {
      const chunk = pending.slice(at, at + UPDATES_MAX_LISTS);
      const byName = new Map(chunk.map((list) => [nameOf(list), list]));
      try {
        const response = await request(
          updatesPath(chunk),
          signal,
          'application/x-ndjson',
          'no-store',
        );
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
          byName.delete(line.data.list);
          if ('feed' in line.data) {
            const entries = entriesOf(line.data.feed);
            onList(list, { entries, title: line.data.feed.title, lookups: line.data.lookups });
          } else if (line.data.problem.status === 429) {
            waiting.push(list);
            wait = Math.max(wait, line.data.problem.retryAfter ?? 5);
          } else {
            const { problem } = line.data;
            onList(list, {
              error: new ApiError('http', problem.detail, {
                status: problem.status,
                problem,
                retryAfter: problem.retryAfter ?? null,
              }),
            });
          }
        }
        // Lines the answer never held (cut short): asked for again.
        waiting.push(...byName.values());
      } catch (error) {
        if (signal.aborted) return;
        if (error instanceof ApiError && error.status === 429) {
          waiting.push(...chunk);
          wait = Math.max(wait, error.retryAfter ?? 5);
          continue;
        }
        for (const list of chunk) onList(list, { error });
      }
    }
    pending = waiting;
    if (pending.length > 0) {
      onPause(wait || 1);
      await sleep((wait || 1) * 1000, signal);
      onPause(null);
    }
  }
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}
