import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createQuotaGuard } from './quota-guard.ts';
import type { DatabaseSync } from 'node:sqlite';
import { openStateFile, STATE_FILE } from '../process/state-file.ts';
import { openQuotaJournal } from './quota-journal.ts';

// The journal over a real SQLite file, read back by a new guard as a restarted process would.

const silent = { warn() {}, error() {} };
let dir: string;
let files: DatabaseSync[] = [];

afterEach(() => {
  for (const db of files) db.close();
  files = [];
  rmSync(dir, { recursive: true, force: true });
});

/** Two upstreams' keys (disk/upstream-scope.ts): the journals below are the first's unless told. */
const UPSTREAM_A = 'a'.repeat(32);
const UPSTREAM_B = 'b'.repeat(32);

function open(now: () => number, scope = UPSTREAM_A) {
  const db = openStateFile(dir, silent, now)!;
  files.push(db);
  return openQuotaJournal(db, join(dir, STATE_FILE), scope, silent, now);
}

describe('the quota journal', () => {
  it('a new guard starts from the calls of the last hour, each budget its own', () => {
    dir = mkdtempSync(join(tmpdir(), 'quota-journal-'));
    let ms = 1_800_000_000_000;
    const now = () => ms;
    const before = open(now);
    const quota = createQuotaGuard({ budgetPerHour: 10, now, journal: before.budget('quota') });
    const warm = createQuotaGuard({ budgetPerHour: 5, now, journal: before.budget('warm') });
    for (let i = 0; i < 4; i++) expect(quota.tryAcquire().ok).toBe(true);
    ms += 30 * 60_000;
    quota.charge(3);
    expect(warm.tryAcquire().ok).toBe(true);
    quota.pauseFor(120);

    ms += 60_000;
    const after = open(now);
    const restored = createQuotaGuard({ budgetPerHour: 10, now, journal: after.budget('quota') });
    expect(restored.stats()).toMatchObject({ budget: 10, usedLastHour: 7, pausedForSeconds: 60 });
    const restoredWarm = createQuotaGuard({ budgetPerHour: 5, now, journal: after.budget('warm') });
    expect(restoredWarm.stats().usedLastHour).toBe(1);

    // An hour after the first calls they have left the window; the later ones have not.
    ms += 30 * 60_000;
    const later = createQuotaGuard({ budgetPerHour: 10, now, journal: open(now).budget('quota') });
    expect(later.stats().usedLastHour).toBe(3);
  });

  it("another upstream's hour and pause are not applied; switching back restores them", () => {
    dir = mkdtempSync(join(tmpdir(), 'quota-journal-'));
    const ms = 1_800_000_000_000;
    const now = () => ms;
    const a = createQuotaGuard({ budgetPerHour: 10, now, journal: open(now).budget('quota') });
    for (let i = 0; i < 3; i++) expect(a.tryAcquire().ok).toBe(true);
    a.pauseFor(600);

    const b = createQuotaGuard({
      budgetPerHour: 10,
      now,
      journal: open(now, UPSTREAM_B).budget('quota'),
    });
    expect(b.stats()).toMatchObject({ budget: 10, usedLastHour: 0, pausedForSeconds: 0 });
    expect(b.tryAcquire().ok).toBe(true);

    const back = createQuotaGuard({ budgetPerHour: 10, now, journal: open(now).budget('quota') });
    expect(back.stats()).toMatchObject({ budget: 10, usedLastHour: 3, pausedForSeconds: 600 });
  });

  it('with a window of seconds, a new guard replays only the calls of that window', () => {
    dir = mkdtempSync(join(tmpdir(), 'quota-journal-'));
    let ms = 1_800_000_000_000;
    const now = () => ms;
    const window = { budget: 5, windowSeconds: 10, now };
    const before = createQuotaGuard({ ...window, journal: open(now).budget('quota', 10) });
    expect([1, 2].map(() => before.tryAcquire().ok)).toEqual([true, true]);
    ms += 6_000;
    expect([1, 2, 3].map(() => before.tryAcquire().ok)).toEqual([true, true, true]);
    expect(before.tryAcquire().ok).toBe(false);

    // Restarted two seconds later: all five still count, and the first two leave on time.
    ms += 2_000;
    const after = createQuotaGuard({ ...window, journal: open(now).budget('quota', 10) });
    expect(after.stats()).toMatchObject({ usedInWindow: 5, windowSeconds: 10 });
    expect(after.secondsUntilRoomFor(1)).toBe(2);
    ms += 2_000;
    expect(after.stats().usedInWindow).toBe(3);

    // Restarted after the window: a fresh one, though the rows are younger than an hour.
    ms += 6_000;
    const later = createQuotaGuard({ ...window, journal: open(now).budget('quota', 10) });
    expect(later.stats().usedInWindow).toBe(0);
  });

  it('a day-long window replays the whole day, not the last hour', () => {
    dir = mkdtempSync(join(tmpdir(), 'quota-journal-'));
    let ms = 1_800_000_000_000;
    const now = () => ms;
    const day = { budget: 100, windowSeconds: 86_400, now };
    const before = createQuotaGuard({ ...day, journal: open(now).budget('quota', 86_400) });
    before.charge(4);
    ms += 5 * 3600_000;
    before.charge(3);
    // Past the 60 s between prunes, with a later write: rows of five hours ago stay.
    ms += 120_000;
    before.charge(1);
    const after = createQuotaGuard({ ...day, journal: open(now).budget('quota', 86_400) });
    expect(after.stats().usedInWindow).toBe(8);
    ms += 20 * 3600_000;
    const nextDay = createQuotaGuard({ ...day, journal: open(now).budget('quota', 86_400) });
    expect(nextDay.stats().usedInWindow).toBe(4);
  });
});
