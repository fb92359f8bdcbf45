import { describe, expect, it } from 'vitest';
import { FOLLOW_STORE_VERSION, readStore, type FollowedList } from './follow-store.ts';
import { compare, seenOf, type FeedEntry } from './list-updates.ts';
import { decodePositions, digestOf, encodePositions, splitDigests } from './seen-digest.ts';

// The follow list as stored: every version and every damage read without losing what can be
// read, and a baseline of what was seen small enough for thousands of lists.

const entry = (i: number, position: number | null): FeedEntry => ({
  videoId: `vid${String(i).padStart(8, '0')}`,
  title: `Video ${i}`,
  watch: `https://www.youtube.com/watch?v=vid${i}`,
  view: null,
  image: null,
  position,
});

/** A playlist's feed: its last 50 items, the last added first. */
const playlistFeed = (total: number) =>
  Array.from({ length: 50 }, (_, k) => entry(total - k, total - k));

const list = (i: number, seen: FollowedList['seen'] = null): FollowedList => ({
  kind: i % 2 ? 'channel' : 'playlist',
  id: i % 2 ? `UC${String(i).padStart(22, '0')}` : `PL${String(i).padStart(32, '0')}`,
  title: `A followed list with an ordinary title, number ${i}`,
  followedAt: 1_790_000_000_000 + i,
  seen,
});

describe('the seen baseline', () => {
  it('keeps positions as runs and digests in order', () => {
    expect(encodePositions([5000, 4999, 4998])).toEqual([5000, -3]);
    expect(encodePositions([1, 2, 3, 7])).toEqual([1, 3, 7, 1]);
    for (const positions of [[5000, 4999, 4998], [1, 2, 3, 7], [9], [4, 2, 8, 7, 6]])
      expect(decodePositions(encodePositions(positions))).toEqual(positions);
    const ids = ['a', 'dQw4w9WgXcQ', 'dQw4w9WgXcR'];
    expect(splitDigests(ids.map(digestOf).join(''))).toEqual(ids.map(digestOf));
    expect(new Set(ids.map(digestOf)).size).toBe(3);
  });

  it('tells what is new and what is gone, as the whole IDs did', () => {
    const before = playlistFeed(5000);
    const seen = seenOf(before);
    // Three added at the end, and the item at 4990 replaced.
    const after = playlistFeed(5003).map((e) =>
      e.position === 4990 ? { ...e, videoId: 'replacement' } : e,
    );
    const update = compare(after, 'T', seen);
    expect([...update.fresh].sort()).toEqual(
      ['replacement', 'vid00005001', 'vid00005002', 'vid00005003'].sort(),
    );
    expect(update.gone).toBe(1);
    expect(compare(before, 'T', seen).fresh.size).toBe(0);
  });

  it('is small: 5,000 followed lists, each with its 50 seen videos, fit in a few megabytes', () => {
    const seen = seenOf(playlistFeed(5000));
    const lists = Array.from({ length: 5000 }, (_, i) => list(i, seen));
    const text = JSON.stringify({ version: FOLLOW_STORE_VERSION, lists });
    const perList = text.length / lists.length;
    // Whole IDs and positions, as version 1 kept them, took about 2 KB a list.
    const v1 = JSON.stringify(
      playlistFeed(5000).map((e) => ({ id: e.videoId, position: e.position })),
    ).length;
    console.log(
      `follow store: ${Math.round(perList)} chars a list (seen baseline ${JSON.stringify(seen).length}, v1's ${v1}); 5,000 lists ${(text.length / 1e6).toFixed(2)} M chars`,
    );
    expect(perList).toBeLessThan(500);
    // localStorage gives an origin 5 M characters (Chromium, Firefox, Safari): room to spare.
    expect(text.length).toBeLessThan(2.5e6);
  });
});

describe('reading the store', () => {
  const stored = (version: number, lists: unknown[]) => JSON.stringify({ version, lists });

  it('reads nothing stored as an empty, writable list', () => {
    expect(readStore(null)).toMatchObject({ lists: [], damaged: [], mode: 'writable' });
  });

  it('upgrades version 1, whose baseline kept whole IDs', () => {
    const feed = playlistFeed(120);
    const v1 = {
      ...list(0),
      seen: { at: 5, items: feed.map((e) => ({ id: e.videoId, position: e.position })) },
    };
    const read = readStore(stored(1, [v1]));
    expect(read.mode).toBe('writable');
    expect(read.lists).toHaveLength(1);
    expect(compare(feed, 'T', read.lists[0]!.seen).fresh.size).toBe(0);
    expect(read.lists[0]!.seen?.positions).toEqual([120, -50]);
  });

  it('skips a damaged entry and keeps it, with every other entry read', () => {
    const lists = [list(0), { kind: 'playlist', id: 42 }, list(1), 'nonsense', list(0)];
    const read = readStore(stored(FOLLOW_STORE_VERSION, lists));
    expect(read.lists.map((l) => l.id)).toEqual([list(0).id, list(1).id]);
    // The bad entries, and the repeated one, are kept as they were, to be written back.
    expect(read.damaged).toEqual([{ kind: 'playlist', id: 42 }, 'nonsense', list(0)]);
    expect(read.mode).toBe('writable');
  });

  it('shows a newer version’s store as far as it reads, and will not write it', () => {
    const newer = { ...list(3), tags: ['kept'], seen: { at: 1, ids: '', positions: null } };
    const read = readStore(stored(FOLLOW_STORE_VERSION + 1, [newer, { shape: 'unknown' }]));
    expect(read.mode).toBe('newer');
    expect(read.lists.map((l) => l.id)).toEqual([list(3).id]);
  });

  it('keeps a store that is not JSON, or not a store, untouched', () => {
    for (const text of ['{"version":2,"lists":[', '[]', '{"lists":[]}', 'null', '"text"'])
      expect(readStore(text).mode, text).toBe('unreadable');
  });
});
