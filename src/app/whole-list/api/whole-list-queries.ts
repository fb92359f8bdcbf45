import { queryOptions } from '@tanstack/react-query';
import {
  listSummarySchema,
  summaryPath,
  walkCostPath,
  walkCostSchema,
  type ListKind,
} from '../../../shared/whole-list.ts';
import { getParsed } from '../../api/api-client.ts';

// The "Whole list" panel's questions to the server: what loading all of a list would cost
// now, and a list's summary (its exact total, over a range of it when asked).

const wholeListKeys = {
  all: ['whole-list'] as const,
  cost: (list: ListKind, id: string) => [...wholeListKeys.all, 'cost', list, id] as const,
  summary: (list: ListKind, id: string, from?: number, to?: number) =>
    [...wholeListKeys.all, 'summary', list, id, from ?? null, to ?? null] as const,
};

export function walkCostOptions(list: ListKind, id: string) {
  return queryOptions({
    queryKey: wholeListKeys.cost(list, id),
    queryFn: ({ signal }) => getParsed(walkCostPath(list, id), walkCostSchema, signal),
    // The quota moves with everyone's use: asked again whenever the panel shows it anew.
    staleTime: 0,
    gcTime: 60_000,
  });
}

export function summaryOptions(list: ListKind, id: string, from?: number, to?: number) {
  return queryOptions({
    queryKey: wholeListKeys.summary(list, id, from, to),
    queryFn: ({ signal }) =>
      getParsed(summaryPath(list, id, { from, to }), listSummarySchema, signal),
  });
}
