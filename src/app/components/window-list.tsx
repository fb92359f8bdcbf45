import {
  defaultRangeExtractor,
  observeWindowOffset,
  useWindowVirtualizer,
  windowScroll,
} from '@tanstack/react-virtual';
import {
  useEffect,
  useEffectEvent,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
  type Ref,
} from 'react';
import { useArrivalAnnouncement } from '../hooks/use-arrival-announcement.ts';
import { useFeedKeys } from '../hooks/use-feed-keys.ts';
import { useHeadingToEnd } from '../hooks/use-heading-to-end.ts';
import { useHeldRows } from '../hooks/use-held-rows.ts';
import { readerMovedFirst, useArrivedByHydration, useHydrated } from '../hooks/use-hydrated.ts';
import { useIsWide } from '../hooks/use-media-query.ts';
import { listScale, type ListScale } from '../lib/list-scale.ts';
import type { WindowListHandle } from '../lib/window-list-handle.ts';
import { useQueryClient } from '@tanstack/react-query';
import { SERVER_RENDERED_ROWS, screenClassKey, type ScreenClass } from '../../shared/app-render.ts';
import { useTranslation } from '../i18n/use-translation.ts';
import { KeysOverlay } from './keys-overlay.tsx';

// A window-scrolled virtual list: the DOM holds only the rows on screen and a few either side.
// Rows have a fixed height, so a restored or deep-linked position lands on the right row at once.
// Until hydrated the list is its first rows in plain flow (SERVER_RENDERED_ROWS for the screen
// the server rendered for), readable with no script and the same markup on the client, so
// hydration meets what the server sent; then the virtualizer takes over where the reader is,
// keeping the rows' DOM nodes. A list taller than browsers can lay out is drawn shorter and
// scrolled to scale (list-scale.ts). Rows are placed with `top`, not a transform, which Chrome's
// layout-shift accounting would count as a move.

/** A row's fixed height below and from the `sm` breakpoint, and the same as classes. */
export interface RowSize {
  narrow: number;
  wide: number;
  className: string;
}

interface WindowListProps {
  label: string;
  count: number;
  rowSize: RowSize;
  /**
   * Rows that hold an item (the rest of `count` are placeholders); before hydration only these
   * are drawn, as a page without scripts has no use for placeholders.
   */
  loadedCount?: number;
  /** The list's full length when known (aria-setsize), else the loaded count. */
  setSize?: number;
  renderRow: (index: number) => ReactNode;
  /** Window scroll position to restore when the list first appears (back/forward). */
  restoreY?: number;
  /**
   * The row the window is about to jump to when the list first appears (a deep link's item):
   * its rows are drawn in the first render, rather than the top rows and then, after the
   * jump's scroll event, these.
   */
  openAt?: number;
  /**
   * Called as the window moves with how many rows (from the first) should be loaded by now: the
   * rows on screen and, ahead of them, as many as the reader will reach before a page or two can
   * arrive at the speed they are scrolling. A reader at rest asks for a screen's worth ahead.
   */
  onNeedRows?: (count: number, visible: number) => void;
  /** Called, after scrolling settles, with the position of the row at the top of the window. */
  onTopIndexChange?: (index: number) => void;
  handleRef?: Ref<WindowListHandle>;
  /** Rows are being added: aria-busy on the feed, as the APG feed pattern asks. */
  busy?: boolean;
  /**
   * End, on a list whose end is neither known nor free to reach (a channel's pages not yet
   * read): called instead of going to the last row loaded, to say what reaching it costs.
   */
  onEndUnknown?: () => void;
}

const OVERSCAN = 5;
const SETTLE_MS = 200;
const CONTEXT_PX = 16;
const PREFETCH_ROWS = 60;
/** How far ahead of a fast reader pages are asked for, in seconds of their scrolling. */
const LEAD_SECONDS = 2;

function documentTop(element: HTMLElement): number {
  return Math.round(element.getBoundingClientRect().top + window.scrollY);
}

function scrollToRow(list: HTMLElement, index: number, rowHeight: number, scale: ListScale): void {
  // A sliver of context above; less than half a row, so the row still counts as the top one.
  const virtual = index * rowHeight - CONTEXT_PX;
  window.scrollTo(0, Math.max(0, Math.round(documentTop(list) + scale.toReal(virtual))));
}

/** The window's height, followed as it changes: the scale depends on it. */
function useViewportHeight(): number {
  const [height, setHeight] = useState(() =>
    typeof window === 'undefined' ? 0 : window.innerHeight,
  );
  useEffect(() => {
    const onResize = () => setHeight(window.innerHeight);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, []);
  return height;
}

export function WindowList({
  label,
  count,
  rowSize,
  loadedCount = count,
  setSize,
  renderRow,
  restoreY,
  openAt,
  onNeedRows,
  onTopIndexChange,
  handleRef,
  busy = false,
  onEndUnknown,
}: WindowListProps) {
  const listRef = useRef<HTMLDivElement>(null);
  const hydrated = useHydrated();
  const queryClient = useQueryClient();
  const serverRows =
    SERVER_RENDERED_ROWS[queryClient.getQueryData<ScreenClass>(screenClassKey) ?? 'wide'];
  const arrivedByHydration = useArrivedByHydration();
  const held = useHeldRows(listRef);
  const wide = useIsWide();
  const rowHeight = rowSize[wide ? 'wide' : 'narrow'];
  const [scrollMargin, setScrollMargin] = useState(0);
  const viewport = useViewportHeight();
  const scale = useMemo(() => listScale(count * rowHeight, viewport), [count, rowHeight, viewport]);
  // Read by the virtualizer's scroll callbacks, which it keeps from its first render.
  const scaling = useRef({ scale, margin: scrollMargin });
  useLayoutEffect(() => {
    scaling.current = { scale, margin: scrollMargin };
  });
  /** The window's document offset over the drawn list → over the whole list. */
  const toVirtualY = (y: number) => {
    const { scale, margin } = scaling.current;
    return margin + scale.toVirtual(y - margin);
  };

  // The list's distance from the top of the document: the header above it may change height
  // (a description expands, the window narrows), so it is measured again on every resize.
  useLayoutEffect(() => {
    const element = listRef.current;
    if (!element) return;
    const measure = () => setScrollMargin(documentTop(element));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, []);

  const virtualizer = useWindowVirtualizer({
    count,
    estimateSize: () => rowHeight,
    overscan: OVERSCAN,
    scrollMargin,
    // A list that appears after hydration to jump to a row starts where the jump will put the
    // window, give or take the header above (scrollMargin, not yet measured), which the
    // overscan covers. One hydrating the server's rows starts where the window is.
    initialOffset: () =>
      restoreY !== undefined
        ? toVirtualY(restoreY)
        : openAt !== undefined && hydrated
          ? Math.max(0, openAt * rowHeight - CONTEXT_PX)
          : typeof window === 'undefined'
            ? 0
            : toVirtualY(window.scrollY),
    observeElementOffset: (instance, onOffset) =>
      observeWindowOffset(instance, (offset, isScrolling) =>
        onOffset(toVirtualY(offset), isScrolling),
      ),
    scrollToFn: (offset, options, instance) => {
      const { scale, margin } = scaling.current;
      windowScroll(margin + scale.toReal(offset - margin), options, instance);
    },
    getItemKey: (index) => index, // by position: a video listed twice is shown twice
    useFlushSync: false,
    rangeExtractor: (range) => {
      const rows = defaultRangeExtractor(range);
      const extra = held.filter((index) => index < range.count && !rows.includes(index));
      return extra.length === 0 ? rows : [...rows, ...extra].sort((a, b) => a - b);
    },
  });

  useEffect(() => {
    virtualizer.measure();
  }, [virtualizer, rowHeight]);

  // A scaled list whose length or window changes keeps the reader on their row: the window
  // moves to where that row is over the list as now drawn.
  const shownScale = useRef(scale);
  useLayoutEffect(() => {
    const before = shownScale.current;
    shownScale.current = scale;
    if (!hydrated || before === scale || (!before.scaled && !scale.scaled)) return;
    const virtual = before.toVirtual(window.scrollY - scrollMargin);
    window.scrollTo(0, Math.round(scrollMargin + scale.toReal(virtual)));
  }, [scale, hydrated, scrollMargin]);

  // A list that turns out shorter than it said (its last page came early) shrinks under a
  // reader at its end, or on the way there (the End key): they are taken to the new end.
  const shownCount = useRef(count);
  const endElsewhere = useRef<(() => boolean) | undefined>(undefined);
  useLayoutEffect(() => {
    endElsewhere.current = onEndUnknown && (() => (onEndUnknown(), true));
  });
  const headingToEnd = useHeadingToEnd(endElsewhere);
  useLayoutEffect(() => {
    const shrank = count < shownCount.current;
    shownCount.current = count;
    if (!hydrated || !shrank) return;
    const end = document.documentElement.scrollHeight - window.innerHeight;
    if (window.scrollY >= end - rowHeight || headingToEnd.current) window.scrollTo(0, end);
  }, [count, hydrated, rowHeight, headingToEnd]);

  // Back/forward: the rows are already in the cache, so the window goes straight back; once the
  // list has its full height (the server's rows are only a first page), and not over a reader
  // who has scrolled the server's page already.
  const restored = useRef(false);
  useLayoutEffect(() => {
    if (!hydrated || restored.current) return;
    restored.current = true;
    if (restoreY !== undefined && !readerMovedFirst(arrivedByHydration))
      window.scrollTo(0, restoreY);
  }, [hydrated, restoreY, arrivedByHydration]);

  // A row asked for before the list is virtual may lie below the server's rows, where the page
  // does not reach yet: it is scrolled to once the list has its full height.
  const pendingIndex = useRef<number | null>(null);
  useLayoutEffect(() => {
    const index = pendingIndex.current;
    if (!hydrated || index === null || !listRef.current) return;
    pendingIndex.current = null;
    scrollToRow(listRef.current, index, rowHeight, scaling.current.scale);
  }, [hydrated, rowHeight]);
  useImperativeHandle(
    handleRef,
    () => ({
      scrollToIndex(index) {
        if (!hydrated) pendingIndex.current = index;
        else if (listRef.current)
          scrollToRow(listRef.current, index, rowHeight, scaling.current.scale);
      },
    }),
    [hydrated, rowHeight],
  );

  const feed = useFeedKeys({
    listRef,
    count,
    rowHeight,
    endKnown: onEndUnknown === undefined,
    scrollToIndex: (index) =>
      listRef.current && scrollToRow(listRef.current, index, rowHeight, scaling.current.scale),
  });
  const arrived = useArrivalAnnouncement(loadedCount);
  const { t } = useTranslation();

  const items = hydrated ? virtualizer.getVirtualItems() : [];
  // The tab stop stays on the row last focused; when that row is not drawn, the first row
  // drawn takes it, so Tab always has a way into the list.
  const tabStop = items.some((row) => row.index === feed.active)
    ? feed.active
    : (items[0]?.index ?? -1);
  // The last of the rows around the window (a held row further down does not count).
  const range = hydrated ? virtualizer.range : null;
  const lastShown = items.length > 0 && range ? Math.min(count - 1, range.endIndex + OVERSCAN) : -1;

  // The reader's speed, px/s, smoothed over the last scroll events; it decays while they rest.
  const speed = useRef({ pxPerSecond: 0, y: 0, at: 0 });
  useEffect(() => {
    const onScroll = () => {
      const now = performance.now();
      const s = speed.current;
      const elapsed = now - s.at;
      // In the whole list's px: a scaled list passes more rows per px of the window's travel.
      const y = toVirtualY(window.scrollY);
      if (elapsed > 0 && elapsed < 500) {
        const instant = (Math.abs(y - s.y) * 1000) / elapsed;
        s.pxPerSecond = 0.7 * s.pxPerSecond + 0.3 * instant;
      } else s.pxPerSecond = 0;
      s.y = y;
      s.at = now;
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);

  const needRows = useEffectEvent(() => {
    if (count === 0 || lastShown < 0) return;
    // PREFETCH_ROWS or two screens ahead at rest; at speed, what the reader covers in
    // LEAD_SECONDS, the time a few pages take to arrive and render.
    const atSpeed = (speed.current.pxPerSecond * LEAD_SECONDS) / rowHeight;
    const ahead = Math.max(PREFETCH_ROWS, (2 * window.innerHeight) / rowHeight, atSpeed);
    onNeedRows?.(lastShown + 1 + Math.ceil(ahead), lastShown + 1);
  });
  useEffect(() => needRows(), [lastShown, count, rowHeight]);

  const topChanged = useEffectEvent(() => {
    const element = listRef.current;
    if (!element || count === 0 || !onTopIndexChange) return;
    const offset = scaling.current.scale.toVirtual(window.scrollY - documentTop(element));
    onTopIndexChange(
      Math.min(count - 1, Math.max(0, Math.floor((offset + rowHeight / 2) / rowHeight))),
    );
  });
  useEffect(() => {
    let timer = 0;
    const onScroll = () => {
      window.clearTimeout(timer);
      timer = window.setTimeout(topChanged, SETTLE_MS);
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      window.clearTimeout(timer);
      window.removeEventListener('scroll', onScroll);
    };
  }, []);

  if (!hydrated) {
    const serverRowCount = Math.min(loadedCount, count, serverRows);
    return (
      // A feed from the first byte, so the list's role does not change under a screen reader when
      // the app takes over; its rows become focusable then, with the keys that move between them.
      //
      // The browser paints a page that is still arriving, and a row it has only half read would
      // have its text move when the rest came (a layout shift): the contents of a row with no
      // row after it yet are not drawn, its box keeping its fixed height, save the last row's,
      // which is marked. Not `:last-child`: Chrome matches it only once the parent is read.
      <div
        ref={listRef}
        aria-label={label}
        role="feed"
        aria-busy={false}
        className="relative [&>article:not([data-last],:has(+*))>*]:hidden"
      >
        {Array.from({ length: serverRowCount }, (_, index) => (
          <article
            key={index}
            data-last={index === serverRowCount - 1 ? '' : undefined}
            aria-setsize={setSize ?? count}
            aria-posinset={index + 1}
            // The browser lays out and paints only the rows near the window (their height is
            // fixed, so the page is as tall as with all of them): the first paint does not wait
            // for forty rows, nor does hydration.
            className={`${rowSize.className} [content-visibility:auto]`}
          >
            {renderRow(index)}
          </article>
        ))}
      </div>
    );
  }

  const margin = virtualizer.options.scrollMargin;
  // Scaled, the rows near the window are drawn where the window is over the drawn list; a held
  // row far from it stays inside the list's box, so it never makes the page taller.
  const virtualOffset = (virtualizer.scrollOffset ?? 0) - margin;
  const shift = scale.toReal(virtualOffset) - virtualOffset;
  const topOf = (start: number, size: number) =>
    scale.scaled
      ? Math.min(scale.height - size, Math.max(0, start - margin + shift))
      : start - margin;
  return (
    <>
      <div
        ref={listRef}
        aria-label={label}
        role="feed"
        aria-busy={busy}
        onKeyDown={feed.onKeyDown}
        onFocus={feed.onFocus}
        className="relative"
        style={{ height: scale.height }}
      >
        {items.map((row) => (
          <article
            key={row.key}
            tabIndex={row.index === tabStop ? 0 : -1}
            aria-setsize={setSize ?? count}
            aria-posinset={row.index + 1}
            // Contained: a row's size is fixed, so the rows that come and go as the reader
            // scrolls are laid out and painted on their own, not with the rest of the page.
            className="absolute start-0 w-full [contain:strict] focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-blue-600"
            style={{ height: row.size, top: topOf(row.start, row.size) }}
          >
            {renderRow(row.index)}
          </article>
        ))}
      </div>
      <p role="status" className="sr-only">
        {arrived === null ? '' : t('keys.arrived', { count: arrived })}
      </p>
      <KeysOverlay open={feed.helpOpen} onClose={feed.closeHelp} />
    </>
  );
}
