import { z } from 'zod';
import { createLocalStore } from '../lib/local-store.ts';

// Where the reader is in each long list and which items they have marked, kept in this
// browser's localStorage with no account, and carried in the follow file (follow-files.ts).
// Each list's entry carries its own schema version and is read on its own: an entry that is
// damaged, or written by a newer explorer, is kept exactly as it was and written back with every
// later write, so it never costs the reader the other lists' progress.

export const PROGRESS_STORE_KEY = 'catalogue-explorer.progress';
/** The version of one list's entry; the file section carries it too. */
export const PROGRESS_ENTRY_VERSION = 1;
export const PROGRESS_FILE_VERSION = 1;

export type ListKind = 'playlist' | 'channel-videos' | 'channel-playlists';

const entrySchema = z.object({
  v: z.literal(PROGRESS_ENTRY_VERSION),
  kind: z.enum(['playlist', 'channel-videos', 'channel-playlists']),
  id: z.string().min(1),
  /** The position last opened or reached: 1-based, as the row's #number. */
  position: z.number().int().min(1).nullable(),
  /** Opened (its platform link followed) or reached (the top row where the reader settled). */
  how: z.enum(['opened', 'reached']).nullable(),
  at: z.number(),
  /** Positions marked as watched, ascending; a list's positions do not move. */
  marks: z.array(z.number().int().min(1)),
  /** "Hide watched" is on for this list (absent in entries written before it existed). */
  hideWatched: z.boolean().optional(),
});

export type ListProgress = z.infer<typeof entrySchema>;

export interface ProgressState {
  lists: ReadonlyMap<string, ListProgress>;
  /** Entries this version cannot read (damaged or newer), by key, exactly as found. */
  kept: Readonly<Record<string, unknown>>;
}

/**
 * A state that stores as its file shape: the local store writes JSON.stringify(state), and a Map
 * would write as `{}`, so each state carries (not enumerably) the way it is written.
 */
function progressState(
  lists: ReadonlyMap<string, ListProgress>,
  kept: Readonly<Record<string, unknown>>,
): ProgressState {
  const state = { lists, kept };
  Object.defineProperty(state, 'toJSON', { value: () => writeProgress(state) });
  return state;
}

export const EMPTY_PROGRESS: ProgressState = progressState(new Map(), {});

export const progressKey = (kind: ListKind, id: string) => `${kind}:${id}`;

/** Reads each entry on its own; what cannot be read is kept aside, never dropped. */
export function readProgress(raw: unknown): ProgressState {
  const entries =
    raw !== null && typeof raw === 'object' && 'entries' in raw
      ? (raw as { entries: unknown }).entries
      : null;
  if (entries === null || typeof entries !== 'object' || Array.isArray(entries))
    return EMPTY_PROGRESS;
  const lists = new Map<string, ListProgress>();
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entries as Record<string, unknown>)) {
    const parsed = entrySchema.safeParse(value);
    if (parsed.success && key === progressKey(parsed.data.kind, parsed.data.id))
      lists.set(key, parsed.data);
    else kept[key] = value;
  }
  return progressState(lists, kept);
}

/** The stored (and exported) shape: unreadable entries go back out as they came in. */
export function writeProgress(state: ProgressState): {
  version: number;
  entries: Record<string, unknown>;
} {
  const entries: Record<string, unknown> = { ...state.kept };
  for (const [key, entry] of state.lists) entries[key] = entry;
  return { version: PROGRESS_FILE_VERSION, entries };
}

function withEntry(
  state: ProgressState,
  kind: ListKind,
  id: string,
  change: (entry: ListProgress) => ListProgress,
): ProgressState {
  const key = progressKey(kind, id);
  // A list whose stored entry this version cannot read is left alone rather than overwritten.
  if (key in state.kept) return state;
  const current = state.lists.get(key) ?? {
    v: PROGRESS_ENTRY_VERSION,
    kind,
    id,
    position: null,
    how: null,
    at: 0,
    marks: [],
  };
  const lists = new Map(state.lists);
  lists.set(key, change(current));
  return progressState(lists, state.kept);
}

/** The reader opened or reached `position` (1-based). */
export function recordPosition(
  state: ProgressState,
  kind: ListKind,
  id: string,
  position: number,
  how: 'opened' | 'reached',
  now: number,
): ProgressState {
  return withEntry(state, kind, id, (entry) => {
    const marks =
      how === 'opened' && !entry.marks.includes(position)
        ? [...entry.marks, position].sort((a, b) => a - b)
        : entry.marks;
    return { ...entry, position, how, at: now, marks };
  });
}

/** Marks or unmarks one position by hand. */
export function toggleMark(
  state: ProgressState,
  kind: ListKind,
  id: string,
  position: number,
  now: number,
): ProgressState {
  return withEntry(state, kind, id, (entry) => ({
    ...entry,
    at: now,
    marks: entry.marks.includes(position)
      ? entry.marks.filter((p) => p !== position)
      : [...entry.marks, position].sort((a, b) => a - b),
  }));
}

/** Turns "hide watched" on or off for one list. */
export function setHideWatched(
  state: ProgressState,
  kind: ListKind,
  id: string,
  hide: boolean,
  now: number,
): ProgressState {
  return withEntry(state, kind, id, (entry) => ({ ...entry, at: now, hideWatched: hide }));
}

/**
 * An imported file's progress section merged into what this browser has: per list, the entry
 * touched last wins; an entry neither can read stays as this browser had it, and a file's
 * unreadable entry for a list this browser has no word on is kept as it came.
 */
export function mergeProgress(current: ProgressState, section: unknown): ProgressState {
  const imported = readProgress(section);
  const lists = new Map(current.lists);
  const kept = { ...current.kept };
  for (const [key, entry] of imported.lists) {
    if (key in kept) continue;
    const mine = lists.get(key);
    if (mine === undefined || entry.at > mine.at) lists.set(key, entry);
  }
  for (const [key, value] of Object.entries(imported.kept))
    if (!lists.has(key) && !(key in kept)) kept[key] = value;
  return progressState(lists, kept);
}

export const progressStore = createLocalStore<ProgressState>(
  PROGRESS_STORE_KEY,
  readProgress,
  EMPTY_PROGRESS,
);
