import { z } from 'zod';
import { FEED_UPDATES_PATH, updatesPath, type FeedList } from './feeds.ts';

// What refreshing some followed lists would cost, asked before anything is spent:
// `GET /feeds/updates/cost?lists=playlist:ID,channel:ID,…` (the same list syntax and limit as
// `/feeds/updates`). The server knows what it holds: a list it read lately costs nothing, a
// channel one lookup, a playlist whose end it keeps one, and a playlist it has never read its
// first page and then its chain to the end (a lookup per hundred items, up to the 5,000 a
// playlist holds: spec §3.1). Where the length is not known yet, `max` says the worst case.

export const FEED_COSTS_PATH = `${FEED_UPDATES_PATH}/cost`;

export const feedCostsPath = (lists: ReadonlyArray<{ kind: FeedList; id: string }>) =>
  updatesPath(lists).replace(FEED_UPDATES_PATH, FEED_COSTS_PATH);

const lookupsSchema = z.object({
  min: z.number().int().nonnegative(),
  max: z.number().int().nonnegative(),
});

export const feedCostsSchema = z.object({
  lists: z.array(z.object({ list: z.string(), lookups: lookupsSchema })),
  /** This client's allowance of upstream lookups: a burst, then so many a second. */
  allowance: z.object({
    burst: z.number().nonnegative(),
    perSecond: z.number().positive(),
  }),
  /** The quota window's lookups left, for everyone, and this client's part of them. */
  window: z.object({
    remaining: z.number().int().nonnegative(),
    clientRemaining: z.number().int().nonnegative().nullable(),
    /** Seconds until the upstream's own "slow down" ends (0: none). */
    pausedForSeconds: z.number().int().nonnegative(),
  }),
});

export type FeedCosts = z.infer<typeof feedCostsSchema>;
export type LookupRange = z.infer<typeof lookupsSchema>;

/**
 * Seconds a refresh of `lookups` takes at this allowance, waits only: a burst at once, then
 * `perSecond`. An estimate (the bucket may not be full), which the view says it is.
 */
export function refreshSeconds(lookups: number, allowance: FeedCosts['allowance']): number {
  return Math.max(0, Math.ceil((lookups - allowance.burst) / allowance.perSecond));
}
