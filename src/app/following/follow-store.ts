import { useSyncExternalStore } from 'react';
import { z } from 'zod';
import { browserStorage, writeText, type StorageFailure } from '../lib/local-store.ts';
import { digestsOf, encodePositions } from './seen-digest.ts';

// The lists a reader follows, with no account: kept in this browser's localStorage, under a
// version. Nothing the reader has is lost without a word: a write storage refuses is undone and
// reported (`failure`); an entry this version cannot read is counted (`damaged`) and written back
// as it was; a store from a newer version is shown but never written over (`mode: 'newer'`); one
// that is not JSON is kept untouched until the reader starts again, which keeps a copy
// (`mode: 'unreadable'`). Each list remembers what the reader last saw of it (seen-digest.ts).

export const FOLLOW_STORE_KEY = 'catalogue-explorer.following';
/** Where an unreadable store is copied before the reader starts a new one. */
export const UNREADABLE_COPY_KEY = `${FOLLOW_STORE_KEY}.unreadable`;
export const FOLLOW_STORE_VERSION = 2;

const seenSchema = z.object({
  at: z.number(),
  /** The feed's videos when last seen, as digests (seen-digest.ts), in the feed's order. */
  ids: z.string(),
  /** Their positions in the playlist, as runs (seen-digest.ts); null for a channel. */
  positions: z.array(z.number().int()).nullable(),
});

export const followedSchema = z.object({
  kind: z.enum(['playlist', 'channel']),
  id: z.string().min(1),
  title: z.string(),
  followedAt: z.number(),
  seen: seenSchema.nullable(),
});

export type FollowedList = z.infer<typeof followedSchema>;
export type Seen = z.infer<typeof seenSchema>;

/** Version 1 kept each seen video whole: ID and position. */
const followedV1Schema = followedSchema.extend({
  seen: z
    .object({
      at: z.number(),
      items: z.array(z.object({ id: z.string(), position: z.number().nullable() })),
    })
    .nullable(),
});

/** A version-1 entry in today's shape. */
function fromV1(entry: z.infer<typeof followedV1Schema>): FollowedList {
  const { seen } = entry;
  if (seen === null) return { ...entry, seen: null };
  const positions = seen.items.map((item) => item.position);
  return {
    ...entry,
    seen: {
      at: seen.at,
      ids: digestsOf(seen.items.map((item) => item.id)),
      positions: positions.every((p) => p !== null) ? encodePositions(positions) : null,
    },
  };
}

/** Why a change was not kept: storage refused it, or the store is not this version's to write. */
export type SaveFailure = StorageFailure | 'newer' | 'unreadable';

export interface FollowState {
  lists: FollowedList[];
  /** Stored entries this version cannot read, kept as they were. */
  damaged: unknown[];
  /** Whether this version may write the store. */
  mode: 'writable' | 'newer' | 'unreadable';
  /** The last change that could not be kept, until one is. */
  failure: { reason: SaveFailure; at: number } | null;
}

const EMPTY: FollowState = { lists: [], damaged: [], mode: 'writable', failure: null };

/** The stored text read into today's shape, whatever version or damage it holds. */
export function readStore(text: string | null): FollowState {
  if (text === null) return EMPTY;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return { ...EMPTY, mode: 'unreadable' };
  }
  const record = raw as { version?: unknown; lists?: unknown } | null;
  if (
    typeof record !== 'object' ||
    record === null ||
    typeof record.version !== 'number' ||
    !Array.isArray(record.lists)
  )
    return { ...EMPTY, mode: 'unreadable' };
  const lists: FollowedList[] = [];
  const damaged: unknown[] = [];
  const seen = new Set<string>();
  for (const entry of record.lists as unknown[]) {
    const today = followedSchema.safeParse(entry);
    const older = today.success ? null : followedV1Schema.safeParse(entry);
    const list = today.success ? today.data : older?.success ? fromV1(older.data) : null;
    if (list === null || seen.has(keyOf(list))) damaged.push(entry);
    else {
      seen.add(keyOf(list));
      lists.push(list);
    }
  }
  const mode = record.version > FOLLOW_STORE_VERSION ? 'newer' : 'writable';
  return { lists, damaged, mode, failure: null };
}

const textOf = (state: FollowState) =>
  JSON.stringify({ version: FOLLOW_STORE_VERSION, lists: [...state.lists, ...state.damaged] });

export const keyOf = (list: Pick<FollowedList, 'kind' | 'id'>) => `${list.kind} ${list.id}`;

let state: FollowState | undefined;
const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());

function current(): FollowState {
  if (state === undefined) {
    let text: string | null = null;
    try {
      text = browserStorage()?.getItem(FOLLOW_STORE_KEY) ?? null;
    } catch {
      // No storage to read: an empty list, and any follow will say it was not kept.
    }
    state = readStore(text);
  }
  return state;
}

if (typeof window !== 'undefined') {
  // Another tab followed, imported or saw something: this one reads the store again.
  window.addEventListener('storage', (event) => {
    if (event.key !== FOLLOW_STORE_KEY && event.key !== null) return;
    state = undefined;
    notify();
  });
}

export type SaveOutcome = { ok: true } | { ok: false; reason: SaveFailure };

/**
 * Stores `next`'s lists. A refused write leaves the page as storage has it (`keepOnFailure`
 * false: a follow that is not kept is not shown as done) or as the reader left it (true: what
 * they have seen, which costs nothing to lose but a "new" mark), and says why either way.
 */
function commit(next: FollowState, keepOnFailure: boolean): SaveOutcome {
  const before = current();
  const outcome: SaveOutcome =
    before.mode !== 'writable'
      ? { ok: false, reason: before.mode }
      : writeText(FOLLOW_STORE_KEY, textOf(next));
  if (outcome.ok) state = { ...next, failure: null };
  else
    state = {
      ...(keepOnFailure ? next : before),
      failure: { reason: outcome.reason, at: Date.now() },
    };
  notify();
  return outcome;
}

export interface AddOutcome {
  added: number;
  known: number;
  saved: SaveOutcome;
}

export const follows = {
  get: () => current().lists,
  state: current,
  subscribe(listener: () => void) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
  /** Adds lists not followed yet (imports, the Follow button). */
  add(lists: ReadonlyArray<Omit<FollowedList, 'followedAt' | 'seen'>>): AddOutcome {
    const now = current();
    const known = new Set(now.lists.map(keyOf));
    const fresh: FollowedList[] = [];
    for (const list of lists) {
      if (known.has(keyOf(list))) continue;
      known.add(keyOf(list));
      fresh.push({ ...list, followedAt: Date.now(), seen: null });
    }
    const added = fresh.length;
    if (added === 0) return { added, known: lists.length, saved: { ok: true } };
    const saved = commit({ ...now, lists: [...now.lists, ...fresh] }, false);
    return { added: saved.ok ? added : 0, known: lists.length - added, saved };
  },
  remove(list: Pick<FollowedList, 'kind' | 'id'>): SaveOutcome {
    const now = current();
    return commit(
      { ...now, lists: now.lists.filter((each) => keyOf(each) !== keyOf(list)) },
      false,
    );
  },
  /**
   * Notes what the reader has now seen of some lists (and their titles, which may have
   * changed), in one write: a write stores the whole list and redraws every view of it.
   */
  markSeen(
    marks: ReadonlyArray<{ list: Pick<FollowedList, 'kind' | 'id'>; seen: Seen; title?: string }>,
  ): SaveOutcome {
    if (marks.length === 0) return { ok: true };
    const byKey = new Map(marks.map((mark) => [keyOf(mark.list), mark]));
    const now = current();
    const lists = now.lists.map((each) => {
      const mark = byKey.get(keyOf(each));
      return mark ? { ...each, seen: mark.seen, title: mark.title || each.title } : each;
    });
    return commit({ ...now, lists }, true);
  },
  /** An unreadable store: keep a copy of it beside, and start an empty one in its place. */
  startAgain(): SaveOutcome {
    const storage = browserStorage();
    const text = storage?.getItem(FOLLOW_STORE_KEY) ?? null;
    if (text !== null) {
      const copied = writeText(UNREADABLE_COPY_KEY, text);
      if (!copied.ok) {
        state = { ...current(), failure: { reason: copied.reason, at: Date.now() } };
        notify();
        return copied;
      }
    }
    state = EMPTY;
    return commit(EMPTY, false);
  },
  /** Forgets the last refusal once the reader has read it. */
  dismissFailure(): void {
    if (current().failure === null) return;
    state = { ...current(), failure: null };
    notify();
  },
};

/**
 * The followed lists and the store's health. The server renders none (it cannot see this
 * browser's storage), and so does hydration; the browser's own list shows right after.
 */
export function useFollowState(): FollowState {
  return useSyncExternalStore(follows.subscribe, current, () => EMPTY);
}

export function useFollows(): FollowedList[] {
  return useFollowState().lists;
}

export function useIsFollowed(kind: FollowedList['kind'], id: string): boolean {
  const lists = useFollows();
  return lists.some((list) => list.kind === kind && list.id === id);
}
