import type { Handler } from 'hono';
import type { FeedCosts } from '../../shared/feed-costs.ts';
import { readUpdatesQuery, UPDATES_MAX_LISTS } from '../../shared/feeds.ts';
import type { AppEnv } from '../http/app-env.ts';
import { clientAddress } from '../http/client-address.ts';
import { problemResponse } from '../http/responses.ts';
import { feedCost, type FeedCostParts } from '../feeds/feed-cost.ts';
import type { ClientShares } from '../quota/client-shares.ts';
import type { QuotaGuard } from '../quota/quota-guard.ts';

// `GET /feeds/updates/cost?lists=…`: what refreshing these followed lists would cost, before the
// Following view spends anything (shared/feed-costs.ts): each list's lookups from what the
// server holds (feeds/feed-cost.ts), this client's allowance, and the window's quota left. It
// reads no page and spends nothing, so it is not limited.

export interface FeedCostsOptions extends FeedCostParts {
  trustProxy: boolean;
  allowance: FeedCosts['allowance'];
  quota: Pick<QuotaGuard, 'stats'>;
  shares?: Pick<ClientShares, 'room' | 'perClient'>;
}

export function feedCosts(options: FeedCostsOptions): Handler<AppEnv> {
  return (c) => {
    c.get('log').route = 'feed-costs';
    const lists = readUpdatesQuery(c.req.query('lists'));
    if (lists === null)
      return problemResponse(
        'invalid_request',
        `Name 1 to ${UPDATES_MAX_LISTS} lists as lists=playlist:ID,channel:ID,… with well-formed IDs.`,
        { instance: c.req.path },
      );
    const { budget, windowSeconds, usedInWindow, pausedForSeconds } = options.quota.stats();
    const body: FeedCosts = {
      lists: lists.map((address) => ({
        list: `${address.list}:${address.id}`,
        lookups: feedCost(options, address),
      })),
      allowance: options.allowance,
      window: {
        seconds: windowSeconds,
        remaining: Math.max(0, budget - usedInWindow),
        clientShare: options.shares
          ? {
              perWindow: options.shares.perClient,
              remaining: options.shares.room(clientAddress(c, options.trustProxy)),
            }
          : null,
        pausedForSeconds,
      },
    };
    return c.json(body, 200, { 'Cache-Control': 'no-store' });
  };
}
