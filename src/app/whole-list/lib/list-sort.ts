import { itemViews, type ListItem, type ListKind } from '../../../shared/whole-list.ts';
import type { SortKey } from './panel-params.ts';

// Orders of a whole list, as positions (0-based, in the list's own order) in the order shown:
// the view's virtual list draws row p as item order[p]. Items without the value sorted on
// (a live stream's duration, a view count the text does not say) go last, and ties keep the
// list's own order.

export interface SortChoice {
  key: SortKey;
  label: string;
}

export const SORT_CHOICES: Record<ListKind, readonly SortChoice[]> = {
  playlist: [
    { key: 'given', label: 'Playlist order' },
    { key: 'longest', label: 'Longest first' },
    { key: 'shortest', label: 'Shortest first' },
    { key: 'views', label: 'Most viewed' },
  ],
  'channel-videos': [
    { key: 'given', label: 'Newest first' },
    { key: 'oldest', label: 'Oldest first' },
    { key: 'views', label: 'Most viewed' },
    { key: 'longest', label: 'Longest first' },
    { key: 'shortest', label: 'Shortest first' },
  ],
  'channel-playlists': [
    { key: 'given', label: 'Channel order' },
    { key: 'most', label: 'Most videos' },
    { key: 'fewest', label: 'Fewest videos' },
  ],
};

export function sortChoice(list: ListKind, key: SortKey): SortChoice | undefined {
  return SORT_CHOICES[list].find((choice) => choice.key === key);
}

/**
 * The order for `key`, or null for the list's own order (or a key the list has no use for).
 * `value` reads what `key` sorts on: duration, views, videos; null when the item has none.
 */
export function sortOrder(
  count: number,
  key: SortKey,
  value: (position: number, key: SortKey) => number | null,
): Int32Array | null {
  if (key === 'given') return null;
  const order = new Int32Array(count);
  for (let i = 0; i < count; i++) order[i] = i;
  if (key === 'oldest') return order.reverse();
  const descending = key === 'views' || key === 'longest' || key === 'most';
  const values = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const v = value(i, key);
    // Missing values last, whichever the direction.
    values[i] = v === null ? (descending ? -Infinity : Infinity) : v;
  }
  const sign = descending ? -1 : 1;
  const sorted = Array.from(order).sort((a, b) => sign * (values[a]! - values[b]!) || a - b);
  return Int32Array.from(sorted);
}

/** Where each position ended up: the inverse of an order. */
export function inverseOrder(order: Int32Array): Int32Array {
  const inverse = new Int32Array(order.length);
  for (let p = 0; p < order.length; p++) inverse[order[p]!] = p;
  return inverse;
}

/** What `key` sorts an item on: its views, its videos (a playlist in a channel), or its duration. */
export function sortValue(list: ListKind, item: ListItem, key: SortKey): number | null {
  if (key === 'views') return itemViews(list, item);
  if (key === 'most' || key === 'fewest') return (item as { videoCount: number }).videoCount;
  return (item as { duration: number | null }).duration;
}
