import { useQuery } from '@tanstack/react-query';
import type { ListKind } from '../../../shared/whole-list.ts';
import { walkCostOptions } from '../api/whole-list-queries.ts';

/**
 * Why the panel offers its whole-list work as a job (docs/jobs.md) rather than only as an answer
 * now: the list states no length (a channel's lists), so reading it may need more lookups than
 * the window holds; or what reading it costs is more than can be paid now (the walk's cost,
 * `affordable`). Null when a synchronous answer will do, or before the cost is known.
 */
export type JobOffer = 'unknown-length' | 'too-long';

export function useJobOffer(list: ListKind, id: string, complete: boolean): JobOffer | null {
  // The same question Load all and the total ask: one request for the three.
  const cost = useQuery({ ...walkCostOptions(list, id), enabled: !complete });
  if (complete || cost.data === undefined) return null;
  if (!cost.data.affordable) return 'too-long';
  return cost.data.lookups === null ? 'unknown-length' : null;
}
