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
  /** The quota window: its length, the lookups left in it, and this client's share of it. */
  window: z.object({
    seconds: z.number().int().positive(),
    remaining: z.number().int().nonnegative(),
    /** This client's share of a window, and what is left of it now; null: no share is kept. */
    clientShare: z
      .object({
        perWindow: z.number().int().positive(),
        remaining: z.number().int().nonnegative(),
      })
      .nullable(),
    /** Seconds until the upstream's own "slow down" ends (0: none). */
    pausedForSeconds: z.number().int().nonnegative(),
  }),
});

export type FeedCosts = z.infer<typeof feedCostsSchema>;
export type LookupRange = z.infer<typeof lookupsSchema>;

/**
 * Seconds of waiting a refresh of `lookups` meets, at the pace it is allowed: a burst at once,
 * then `perSecond`; and, past what is left of this client's share of the window, a window for
 * each further share. An estimate (the burst may not be full, the window frees as it slides),
 * which the view says it is.
 */
export function refreshSeconds(
  lookups: number,
  costs: Pick<FeedCosts, 'allowance' | 'window'>,
): number {
  const { allowance, window } = costs;
  const paced = Math.max(0, Math.ceil((lookups - allowance.burst) / allowance.perSecond));
  const share = window.clientShare;
  const beyond = share === null ? 0 : lookups - share.remaining;
  const windows = beyond > 0 ? Math.ceil(beyond / share!.perWindow) * window.seconds : 0;
  return Math.max(paced, windows, window.pausedForSeconds);
}
