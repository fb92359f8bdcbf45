import { z } from 'zod';
import { feedPath } from '../../shared/feeds.ts';
import { request } from '../api/api-client.ts';
import { ApiError } from '../api/api-error.ts';
import type { FollowedList, Seen } from './follow-store.ts';

// What is new in each followed list, read from the list's own feed on this server
// (`/feeds/…json`): a channel's newest videos, a playlist's end (the last added first). The
// server reads a list at most once per freshness window whoever asks, and a long playlist's
// end without walking it again (feeds/feed-source.ts), so a refresh costs at most a lookup per
// list, none for lists read lately. Lists are read a few at a time; when the server says to
// wait (this browser's allowance, the hour's quota), the refresh waits as long and goes on,
// so following 500 lists pages its refreshes instead of failing.

const feedSchema = z.object({
  title: z.string(),
  items: z.array(
    z.object({
      url: z.string(),
      external_url: z.string().optional(),
      title: z.string().optional(),
      image: z.string().optional(),
      date_published: z.string().optional(),
    }),
  ),
});

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

export async function readListFeed(
  list: FollowedList,
  signal: AbortSignal,
): Promise<FeedEntry[] & { title?: string }> {
  // Asked again every time (the feed may be kept by the browser for minutes): an unchanged
  // feed comes back as a 304, its bytes not sent again.
  const response = await request(
    feedPath(list.kind, list.id, 'json'),
    signal,
    'application/feed+json',
    'no-cache',
  );
  const parsed = feedSchema.safeParse(await response.json().catch(() => null));
  if (!parsed.success)
    throw new ApiError('malformed', 'The server sent a feed the explorer cannot read.');
  const entries: FeedEntry[] & { title?: string } = parsed.data.items.map((item) => ({
    videoId: videoOf(item.url),
    title: item.title ?? '',
    watch: item.url,
    view: item.external_url ?? null,
    image: item.image ?? null,
    position: positionOf(item.external_url),
  }));
  entries.title = parsed.data.title;
  return entries;
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
    result: { entries: FeedEntry[]; title: string } | { error: unknown },
  ): void;
  /** The server asked to wait `seconds` before more; `done` lists so far. */
  onPause(seconds: number | null): void;
}

/** Lists read at once: a browser's connections to one host. */
const AT_ONCE = 4;

/** Reads every list's feed, a few at a time, waiting whenever the server says to. */
export async function refreshAll(
  lists: readonly FollowedList[],
  signal: AbortSignal,
  { onList, onPause }: RefreshCallbacks,
): Promise<void> {
  let next = 0;
  let resumeAt = 0;
  const worker = async () => {
    while (next < lists.length && !signal.aborted) {
      const list = lists[next++]!;
      for (;;) {
        const wait = resumeAt - Date.now();
        if (wait > 0) await sleep(wait, signal);
        if (signal.aborted) return;
        try {
          const entries = await readListFeed(list, signal);
          onList(list, { entries, title: entries.title ?? list.title });
          break;
        } catch (error) {
          if (signal.aborted) return;
          if (error instanceof ApiError && error.status === 429) {
            const seconds = error.retryAfter ?? 5;
            resumeAt = Math.max(resumeAt, Date.now() + seconds * 1000);
            onPause(seconds);
            continue;
          }
          onList(list, { error });
          break;
        }
      }
      onPause(null);
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, lists.length) }, worker));
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
