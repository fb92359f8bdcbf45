import type { Handler } from 'hono';
import type { FeedCosts } from '../../shared/feed-costs.ts';
import type { AppEnv } from '../http/app-env.ts';
import { clientAddress } from '../http/client-address.ts';
import { namedLists } from './feeds.ts';
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
    const lists = namedLists(c);
    if (lists instanceof Response) return lists;
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
