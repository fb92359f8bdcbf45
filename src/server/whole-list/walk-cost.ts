import type { PlaylistPage } from '../../shared/catalogue-schema.ts';
import { PLAYLIST_PAGE_SIZE, type ListKind, type WalkCost } from '../../shared/whole-list.ts';
import type { PageSource } from '../pages/page-source.ts';
import type { PageAnswer } from '../pages/page-entry.ts';
import type { ClientShares } from '../quota/client-shares.ts';
import type { QuotaGuard } from '../quota/quota-guard.ts';

// What a walk would cost, before it starts. A playlist states its length on its first page
// (spec §3.1), so its walk reads ceil(totalItems / 100) pages, of which those at the start of
// the chain that the cache holds fresh cost nothing; when the window's remaining quota (or the
// client's share of it) cannot cover the rest, the walk is refused up front with the cost and
// the wait, rather than started and left half done. A channel's lists state no length: their cost is unknown, and their walk
// goes on while the quota lasts.

export type CostAnswer =
  | {
      ok: true;
      cost: WalkCost;
      title: string | null;
      /** The first page, read to learn the cost: a walk starts from it. */
      first: Extract<PageAnswer, { kind: 'page' }>;
    }
  /** The first page could not be had: answer its problem, as the lookup would. */
  | { ok: false; answer: Extract<PageAnswer, { kind: 'problem' }> };

export async function walkCost(
  parts: {
    pageSource: Pick<PageSource, 'get' | 'fresh'>;
    quota: Pick<QuotaGuard, 'stats' | 'secondsUntilRoomFor'>;
    /** The client's share of the window; unset: no share is kept. */
    shares?: Pick<ClientShares, 'perClient' | 'room' | 'secondsUntilRoomFor'>;
  },
  list: ListKind,
  id: string,
  client: string,
  /** Only the items up to this position are wanted (a range summary). */
  upTo?: number,
): Promise<CostAnswer> {
  const { pageSource, quota, shares } = parts;
  // The first page: in the cache after browsing, else one lookup (counted in the quota shown).
  const first = await pageSource.get({ endpoint: list, id, continuation: undefined }, client);
  if (first.kind === 'problem') return { ok: false, answer: first };

  const firstData = (first.data ?? JSON.parse(first.page.body.toString('utf8'))) as {
    continuation: string | null;
    info?: PlaylistPage['info'];
  };
  // The chain's pages the cache holds fresh, from the start: the walk reads them for free.
  let cachedPages = 1;
  let continuation = firstData.continuation;
  while (continuation !== null) {
    const next = pageSource.fresh({ endpoint: list, id, continuation });
    if (next === undefined) break;
    cachedPages++;
    ({ continuation } = JSON.parse(next.body.toString('utf8')) as { continuation: string | null });
  }

  const totalItems = firstData.info?.totalItems ?? null;
  const title = firstData.info?.title ?? null;
  const wanted =
    upTo === undefined || totalItems === null ? totalItems : Math.min(upTo, totalItems);
  const pages = wanted === null ? null : Math.max(1, Math.ceil(wanted / PLAYLIST_PAGE_SIZE));
  const lookups = pages === null ? null : Math.max(0, pages - cachedPages);

  const { budget, windowSeconds, usedInWindow, pausedForSeconds } = quota.stats();
  const remaining = Math.max(0, budget - usedInWindow);
  const cost: WalkCost = {
    list,
    id,
    totalItems,
    pages,
    cachedPages: pages === null ? cachedPages : Math.min(cachedPages, pages),
    lookups,
    // `budgetPerHour` keeps its name for the app and scripts that read it: the window's budget.
    quota: { budgetPerHour: budget, windowSeconds, remaining, pausedForSeconds },
    affordable: true,
  };
  if (shares !== undefined)
    cost.share = { perClient: shares.perClient, remaining: shares.room(client) };
  if (lookups !== null && lookups > 0) {
    const wait = Math.max(pausedForSeconds, await quota.secondsUntilRoomFor(lookups));
    const shareWait = shares?.secondsUntilRoomFor(client, lookups) ?? 0;
    if (wait > 0 || shareWait > 0) {
      cost.affordable = false;
      cost.limitedBy = wait >= shareWait ? 'quota' : 'share';
      cost.retryAfter = Math.max(wait, shareWait);
    }
  } else if (lookups === null && (remaining === 0 || pausedForSeconds > 0)) {
    // A channel's walk needs at least its next page.
    cost.affordable = false;
    cost.retryAfter = Math.max(pausedForSeconds, await quota.secondsUntilRoomFor(1));
  }
  return { ok: true, cost, title, first };
}
