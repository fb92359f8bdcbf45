import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import { keyOf, type FollowedList } from './follow-store.ts';
import { ListCard } from './list-card.tsx';
import type { Result } from './use-following-refresh.ts';

// The followed lists, virtualized against the window's scroll like the list views: however many
// lists are followed, the DOM holds the cards on screen and a few either side. Cards differ
// in height (new entries, a failure), so each is measured once drawn; an estimate places the
// rest until then.

/** A card with its five entries, the usual case, in px. */
const ESTIMATED_CARD = 210;
/** The gap between cards (Tailwind's space-y-4). */
const GAP = 16;
const OVERSCAN = 4;

export function FollowingList({
  lists,
  results,
  waiting,
  label,
}: {
  lists: readonly FollowedList[];
  results: ReadonlyMap<string, Result>;
  /** Lists the refresh waits to read until the reader says so. */
  waiting: readonly FollowedList[] | null;
  label: string;
}) {
  const held = useMemo(() => new Set(waiting?.map(keyOf)), [waiting]);
  const listRef = useRef<HTMLUListElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);

  // The list's distance from the top of the document, measured again when what is above it
  // changes height (a notice, the progress line wrapping).
  useLayoutEffect(() => {
    const element = listRef.current;
    if (!element) return;
    const measure = () =>
      setScrollMargin(Math.round(element.getBoundingClientRect().top + window.scrollY));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);

  const virtualizer = useWindowVirtualizer({
    count: lists.length,
    estimateSize: () => ESTIMATED_CARD + GAP,
    overscan: OVERSCAN,
    scrollMargin,
    getItemKey: (index) => keyOf(lists[index]!),
    useFlushSync: false,
  });

  const items = virtualizer.getVirtualItems();
  return (
    <ul
      ref={listRef}
      aria-label={label}
      className="relative mt-4"
      style={{ height: virtualizer.getTotalSize() }}
    >
      {items.map((item) => {
        const list = lists[item.index]!;
        return (
          <li
            key={item.key}
            ref={virtualizer.measureElement}
            data-index={item.index}
            aria-posinset={item.index + 1}
            aria-setsize={lists.length}
            className="absolute inset-x-0 pb-4"
            style={{ top: item.start - virtualizer.options.scrollMargin }}
          >
            <ListCard list={list} result={results.get(keyOf(list))} held={held.has(keyOf(list))} />
          </li>
        );
      })}
    </ul>
  );
}
