import { useQuery } from '@tanstack/react-query';
import type { ListKind } from '../../../shared/whole-list.ts';
import { summaryOptions } from '../api/whole-list-queries.ts';

/**
 * The exact seconds from `position` (1-based) to the end of a list, once the reader has had the
 * list's durations added up (the panel's total time, a whole-list summary): its pages are then in
 * the server's cache, so the summary from `position` costs no lookup. Null until then, and while
 * it is on its way.
 */
export function useExactTimeFrom(list: ListKind, id: string, position: number | null) {
  // Read from the cache only: the panel asks for the whole list's summary, never this hook.
  const whole = useQuery({ ...summaryOptions(list, id), enabled: false });
  const fromHere = useQuery({
    ...summaryOptions(list, id, position ?? undefined),
    enabled: whole.data !== undefined && position !== null,
  });
  return whole.data !== undefined && position !== null
    ? (fromHere.data?.measure.total ?? null)
    : null;
}
