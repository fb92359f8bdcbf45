import type { HeldFailure, PageCacheEntry } from './page-entry.ts';

// The page cache's second level: where pages live beyond this process's memory, and who else
// is fetching a page right now. One port, its adapter chosen once by the composition root:
// nothing (`NO_SECOND_LEVEL`), the pages a process alone keeps on disk (disk-pages.ts, SQLite),
// or replicas sharing Redis (shared-state/shared-pages.ts), the two stores holding entries as
// entry-codec.ts writes them. The page source follows one policy over any of them.
//
// Answers may come as values or as promises: nothing and the disk answer at once, so that a lone
// process decides without yielding and requests arriving together still merge in memory.

export interface SecondLevelHold {
  detail: HeldFailure;
  untilMs: number;
}

export interface SecondLevelRead {
  entry?: PageCacheEntry;
  /** Someone else (another replica) is fetching the page. */
  fetching: boolean;
  /** Someone else's fetch of the page failed just now: held back until then. */
  hold?: SecondLevelHold;
}

export interface SecondLevel {
  read(key: string): SecondLevelRead | Promise<SecondLevelRead>;
  /** The entry alone (cheaper than `read`): for a page about to be served fresh. */
  entry(key: string): PageCacheEntry | undefined | Promise<PageCacheEntry | undefined>;
  /** Claims the page for this process's fetch: false if someone else holds the claim. */
  claim(key: string): boolean | Promise<boolean>;
  /** Waits for someone else's result, up to `timeoutMs`; what was read last. */
  waitFor(key: string, timeoutMs: number): Promise<SecondLevelRead>;
  /** Stores an entry for `ttlMs`, drops the claim and any hold, and wakes the waiters. */
  store(key: string, entry: PageCacheEntry, ttlMs: number): void;
  /** The fetch failed: holds the page back until `untilMs` (or not), drops the claim, wakes. */
  release(key: string, hold?: SecondLevelHold): void;
  /** Counts a page served from the second level. */
  countHit(): void;
  /** Counts an answer someone else fetched. */
  countMerged(): void;
}

/** A read that found nothing, and no one fetching. */
export const NOTHING_READ: SecondLevelRead = { fetching: false };

/** A process alone: nothing beyond its own cache, and every claim its own. */
export const NO_SECOND_LEVEL: SecondLevel = {
  read: () => NOTHING_READ,
  entry: () => undefined,
  claim: () => true,
  waitFor: () => Promise.resolve(NOTHING_READ),
  store() {},
  release() {},
  countHit() {},
  countMerged() {},
};
