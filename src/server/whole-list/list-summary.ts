import {
  measureOf,
  measureValue,
  type ListItem,
  type ListKind,
  type ListSummary,
  type NotableItem,
  type WalkStop,
} from '../../shared/whole-list.ts';

// A list's summary, folded page by page as a walk reads them: counts, the exact total of the
// measure (seconds for videos, videos for a channel's playlists), how many items have no usable
// value (live streams, a duration the upstream left out: spec §3.4), the average, the median,
// and the shortest and longest items with their positions. Only the values are kept for the
// median, never the items.

export interface SummaryRange {
  from?: number;
  to?: number;
}

export interface SummaryFold {
  /** Takes the items of the next page, the first of which is at `firstPosition`. */
  add(items: readonly ListItem[], firstPosition: number): void;
  result(meta: {
    id: string;
    title: string | null;
    complete: boolean;
    stoppedBy: WalkStop | null;
    pages: number;
    totalItems: number | null;
  }): ListSummary;
}

export function createSummaryFold(list: ListKind, range: SummaryRange = {}): SummaryFold {
  const from = range.from ?? 1;
  const to = range.to ?? Number.POSITIVE_INFINITY;
  const values: number[] = [];
  let count = 0;
  let missing = 0;
  let total = 0;
  let lastPosition = 0;
  let shortest: NotableItem | null = null;
  let longest: NotableItem | null = null;

  return {
    add(items, firstPosition) {
      items.forEach((item, offset) => {
        const position = firstPosition + offset;
        lastPosition = position;
        if (position < from || position > to) return;
        count++;
        const value = measureValue(list, item);
        if (value === null) {
          missing++;
          return;
        }
        values.push(value);
        total += value;
        // Ties keep the first: "the shortest" is the earliest of the shortest.
        if (shortest === null || value < shortest.value)
          shortest = { position, id: item.id, title: item.title, value };
        if (longest === null || value > longest.value)
          longest = { position, id: item.id, title: item.title, value };
      });
    },
    result({ id, title, complete, stoppedBy, pages, totalItems }) {
      const kind = measureOf[list];
      const counted = values.length;
      let median: number | null = null;
      if (counted > 0) {
        const sorted = Float64Array.from(values).sort();
        const middle = counted >> 1;
        median =
          counted % 2 === 1
            ? (sorted[middle] as number)
            : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
      }
      const asked = range.from !== undefined || range.to !== undefined;
      // The end of what was read: a range past it is cut there, and says so.
      const clippedTo = Math.min(to, lastPosition);
      return {
        list,
        id,
        title,
        // A range ends where it asks to: reading stopped there on purpose.
        complete,
        stoppedBy,
        pages,
        totalItems,
        count,
        range: asked
          ? {
              from,
              to: Math.max(from, clippedTo),
              requestedTo: Number.isFinite(to) ? to : Math.max(from, lastPosition),
              clipped: complete && Number.isFinite(to) ? to > lastPosition : false,
            }
          : null,
        measure: {
          kind,
          unit: kind === 'duration' ? 'seconds' : 'videos',
          total,
          counted,
          missing,
          average: counted > 0 ? total / counted : null,
          median,
          shortest,
          longest,
        },
      };
    },
  };
}
