import type { MessageId } from '../../../shared/i18n/message-id.ts';
import { itemViews, type ListItem, type ListKind } from '../../../shared/whole-list.ts';
import type { SortKey } from './panel-params.ts';

// Orders of a whole list, as positions (0-based, in the list's own order) in the order shown:
// the view's virtual list draws row p as item order[p]. Items without the value sorted on
// (a live stream's duration, a view count the text does not say) go last, and ties keep the
// list's own order.

export interface SortChoice {
  key: SortKey;
  /** The order's name in the picker. */
  label: MessageId;
}

export const SORT_CHOICES: Record<ListKind, readonly SortChoice[]> = {
  playlist: [
    { key: 'given', label: 'wholeList.sort.option.playlistOrder' },
    { key: 'longest', label: 'wholeList.sort.option.longestFirst' },
    { key: 'shortest', label: 'wholeList.sort.option.shortestFirst' },
    { key: 'views', label: 'wholeList.sort.option.mostViewed' },
  ],
  'channel-videos': [
    { key: 'given', label: 'wholeList.sort.option.newestFirst' },
    { key: 'oldest', label: 'wholeList.sort.option.oldestFirst' },
    { key: 'views', label: 'wholeList.sort.option.mostViewed' },
    { key: 'longest', label: 'wholeList.sort.option.longestFirst' },
    { key: 'shortest', label: 'wholeList.sort.option.shortestFirst' },
  ],
  'channel-playlists': [
    { key: 'given', label: 'wholeList.sort.option.channelOrder' },
    { key: 'most', label: 'wholeList.sort.option.mostVideos' },
    { key: 'fewest', label: 'wholeList.sort.option.fewestVideos' },
  ],
};

/**
 * What the picker says while a chosen order waits for the whole list: a sentence of its own
 * for each order rather than the option's name set in a sentence (which would need its case
 * and agreement changed in many languages). The list's own order never waits.
 */
export const SORT_PENDING: Record<Exclude<SortKey, 'given'>, MessageId> = {
  oldest: 'wholeList.sort.pending.oldestFirst',
  views: 'wholeList.sort.pending.mostViewed',
  longest: 'wholeList.sort.pending.longestFirst',
  shortest: 'wholeList.sort.pending.shortestFirst',
  most: 'wholeList.sort.pending.mostVideos',
  fewest: 'wholeList.sort.pending.fewestVideos',
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
