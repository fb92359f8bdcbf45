import { describe, expect, it } from 'vitest';
import { exportJson, readImport } from '../following/follow-files.ts';
import { progressSection, progressSectionOf } from './progress-file.ts';
import {
  EMPTY_PROGRESS,
  mergeProgress,
  readProgress,
  recordPosition,
  toggleMark,
  writeProgress,
} from './progress-store.ts';

// The progress store read entry by entry, and its way through the follow file and back.

const PLAYLIST = 'PLcatalogueDemoPlaylist5000items00';
const CHANNEL = 'UCcatalogueDemoChannel01';

describe('progress store', () => {
  it('keeps the last position opened or reached, and marks what was opened', () => {
    let state = recordPosition(EMPTY_PROGRESS, 'playlist', PLAYLIST, 412, 'opened', 10);
    state = recordPosition(state, 'playlist', PLAYLIST, 430, 'reached', 20);
    const entry = state.lists.get(`playlist:${PLAYLIST}`);
    expect(entry).toMatchObject({ position: 430, how: 'reached', at: 20, marks: [412] });
  });

  it('toggles a mark by hand, keeping marks in order', () => {
    let state = toggleMark(EMPTY_PROGRESS, 'playlist', PLAYLIST, 9, 1);
    state = toggleMark(state, 'playlist', PLAYLIST, 3, 2);
    expect(state.lists.get(`playlist:${PLAYLIST}`)?.marks).toEqual([3, 9]);
    state = toggleMark(state, 'playlist', PLAYLIST, 9, 3);
    expect(state.lists.get(`playlist:${PLAYLIST}`)?.marks).toEqual([3]);
  });

  it('round-trips through its stored shape', () => {
    const state = recordPosition(EMPTY_PROGRESS, 'channel-videos', CHANNEL, 7, 'opened', 5);
    // As the local store writes it: JSON.stringify of the state itself.
    const again = readProgress(JSON.parse(JSON.stringify(state)));
    expect([...again.lists]).toEqual([...state.lists]);
    expect(JSON.parse(JSON.stringify(state))).toEqual(writeProgress(state));
  });

  it('reads each entry on its own: a damaged or newer one costs nothing else', () => {
    const good = recordPosition(EMPTY_PROGRESS, 'playlist', PLAYLIST, 412, 'opened', 1);
    const damaged = { v: 1, kind: 'playlist', id: 'PLbroken', position: 'twelve' };
    const newer = { v: 2, kind: 'playlist', id: 'PLnewer', cursor: { page: 3 } };
    const raw = {
      version: 1,
      entries: {
        ...writeProgress(good).entries,
        'playlist:PLbroken': damaged,
        'playlist:PLnewer': newer,
      },
    };
    const state = readProgress(raw);
    expect(state.lists.get(`playlist:${PLAYLIST}`)?.position).toBe(412);
    expect(state.kept).toEqual({ 'playlist:PLbroken': damaged, 'playlist:PLnewer': newer });
    // A later write neither drops nor overwrites them.
    const later = toggleMark(state, 'playlist', 'PLnewer', 5, 2);
    expect(writeProgress(later).entries['playlist:PLnewer']).toEqual(newer);
    expect(writeProgress(later).entries['playlist:PLbroken']).toEqual(damaged);
  });

  it('reads nothing from a store that is not one, without throwing', () => {
    for (const raw of [null, 3, 'x', [], { entries: [] }])
      expect(readProgress(raw).lists.size).toBe(0);
  });
});

describe('progress in the follow file', () => {
  it('rides along in the JSON export, which still imports its lists', () => {
    let state = recordPosition(EMPTY_PROGRESS, 'playlist', PLAYLIST, 412, 'opened', 100);
    state = toggleMark(state, 'playlist', PLAYLIST, 3, 101);
    const lists = [
      { kind: 'playlist' as const, id: PLAYLIST, title: 'Demo', followedAt: 0, seen: null },
    ];
    const text = exportJson(lists, progressSection(state));
    expect(readImport(text)).toMatchObject({ ok: true, lists: [{ id: PLAYLIST }] });
    const imported = mergeProgress(EMPTY_PROGRESS, progressSectionOf(text));
    expect(imported.lists.get(`playlist:${PLAYLIST}`)).toMatchObject({
      position: 412,
      marks: [3, 412],
    });
  });

  it('merges per list: the entry touched last wins, unreadable ones are kept', () => {
    const mine = recordPosition(EMPTY_PROGRESS, 'playlist', PLAYLIST, 50, 'reached', 300);
    const theirs = recordPosition(
      recordPosition(EMPTY_PROGRESS, 'playlist', PLAYLIST, 20, 'reached', 200),
      'channel-videos',
      CHANNEL,
      8,
      'opened',
      250,
    );
    const section = writeProgress(theirs);
    section.entries['playlist:PLnewer'] = { v: 9 };
    const merged = mergeProgress(mine, section);
    expect(merged.lists.get(`playlist:${PLAYLIST}`)?.position).toBe(50);
    expect(merged.lists.get(`channel-videos:${CHANNEL}`)?.position).toBe(8);
    expect(merged.kept).toEqual({ 'playlist:PLnewer': { v: 9 } });
  });

  it('finds no progress in a file without it, or in another format', () => {
    expect(progressSectionOf(exportJson([]))).toBeNull();
    expect(progressSectionOf('{"subscriptions":[]}')).toBeNull();
    expect(progressSectionOf('<opml/>')).toBeNull();
  });
});
