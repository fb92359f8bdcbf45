import { useSyncExternalStore } from 'react';
import { z } from 'zod';
import { createLocalStore } from '../lib/local-store.ts';

// The lists a reader follows, with no account: kept in this browser's localStorage, under a
// version, so that a later shape of the list can read an older one (`upgrade`). Each list
// remembers what the reader last saw of it (the video IDs of its feed, with their positions
// for a playlist), which is how the Following view tells what is new and what is gone.

export const FOLLOW_STORE_KEY = 'catalogue-explorer.following';
export const FOLLOW_STORE_VERSION = 1;

const seenSchema = z.object({
  at: z.number(),
  /** The feed's videos when last seen: ID, and position in the playlist (null for a channel). */
  items: z.array(z.object({ id: z.string(), position: z.number().nullable() })),
});

export const followedSchema = z.object({
  kind: z.enum(['playlist', 'channel']),
  id: z.string(),
  title: z.string(),
  followedAt: z.number(),
  seen: seenSchema.nullable(),
});

export type FollowedList = z.infer<typeof followedSchema>;
export type Seen = z.infer<typeof seenSchema>;

const storedSchema = z.object({
  version: z.literal(FOLLOW_STORE_VERSION),
  lists: z.array(followedSchema),
});

export type StoredFollows = z.infer<typeof storedSchema>;

const EMPTY: StoredFollows = { version: FOLLOW_STORE_VERSION, lists: [] };

/**
 * The stored value in the current shape. Each version's step goes here when a new one comes
 * (version 1 → 2, …); a value written by a newer app than this one, or unreadable, is not
 * thrown away: the list reads as empty and nothing is written over it until the reader
 * follows something here.
 */
export function upgrade(raw: unknown): StoredFollows {
  const parsed = storedSchema.safeParse(raw);
  return parsed.success ? parsed.data : EMPTY;
}

const store = createLocalStore<StoredFollows>(FOLLOW_STORE_KEY, upgrade, EMPTY);

/** `lists` in the current shape, as stored. */
const save = (lists: FollowedList[]): StoredFollows => ({ version: FOLLOW_STORE_VERSION, lists });

const keyOf = (list: Pick<FollowedList, 'kind' | 'id'>) => `${list.kind} ${list.id}`;

export const follows = {
  get: () => store.get().lists,
  subscribe: store.subscribe,
  /** Adds lists not followed yet (imports, the Follow button); returns how many were new. */
  add(lists: ReadonlyArray<Omit<FollowedList, 'followedAt' | 'seen'>>): number {
    let added = 0;
    store.set((stored) => {
      const current = stored.lists;
      const known = new Set(current.map(keyOf));
      const fresh: FollowedList[] = [];
      for (const list of lists) {
        if (known.has(keyOf(list))) continue;
        known.add(keyOf(list));
        fresh.push({ ...list, followedAt: Date.now(), seen: null });
      }
      added = fresh.length;
      return added === 0 ? stored : save([...current, ...fresh]);
    });
    return added;
  },
  remove(list: Pick<FollowedList, 'kind' | 'id'>): void {
    store.set(({ lists: current }) => save(current.filter((each) => keyOf(each) !== keyOf(list))));
  },
  /**
   * Notes what the reader has now seen of some lists (and their titles, which may have
   * changed), in one write: a write stores the whole list and redraws every view of it.
   */
  markSeen(
    marks: ReadonlyArray<{ list: Pick<FollowedList, 'kind' | 'id'>; seen: Seen; title?: string }>,
  ): void {
    if (marks.length === 0) return;
    const byKey = new Map(marks.map((mark) => [keyOf(mark.list), mark]));
    store.set(({ lists: current }) =>
      save(
        current.map((each) => {
          const mark = byKey.get(keyOf(each));
          return mark ? { ...each, seen: mark.seen, title: mark.title || each.title } : each;
        }),
      ),
    );
  },
};

/**
 * The followed lists. The server renders none (it cannot see this browser's storage), and so
 * does hydration; the browser's own list shows right after.
 */
export function useFollows(): FollowedList[] {
  return useSyncExternalStore(store.subscribe, store.get, store.initial).lists;
}

export function useIsFollowed(kind: FollowedList['kind'], id: string): boolean {
  const lists = useFollows();
  return lists.some((list) => list.kind === kind && list.id === id);
}
