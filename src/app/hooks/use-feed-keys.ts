import { LIST_ROW_SELECTOR } from '../../shared/app-render.ts';
import {
  useCallback,
  useLayoutEffect,
  useRef,
  useState,
  type FocusEvent,
  type KeyboardEvent,
  type RefObject,
} from 'react';

// The keys of the WAI-ARIA feed pattern on a virtual list: one row at a time holds the tab stop
// (a roving tabindex), so Tab enters the list once and leaves it, and keys move between rows.
// The row to focus may not be in the DOM (the virtualizer draws only the rows near the window):
// it is scrolled to through the list's handle and focused once it is drawn.

const ROW_SELECTOR = LIST_ROW_SELECTOR;

export interface FeedKeysOptions {
  listRef: RefObject<HTMLElement | null>;
  /** Rows in the list, placeholders included. */
  count: number;
  rowHeight: number;
  /** False while End asks first what reaching the end costs (use-heading-to-end.ts). */
  endKnown: boolean;
  scrollToIndex: (index: number) => void;
}

export interface FeedKeys {
  /** The row that holds the tab stop. */
  active: number;
  helpOpen: boolean;
  closeHelp: () => void;
  onKeyDown: (event: KeyboardEvent<HTMLElement>) => void;
  onFocus: (event: FocusEvent<HTMLElement>) => void;
}

function rowAt(list: HTMLElement | null, index: number): HTMLElement | null {
  return list?.querySelector<HTMLElement>(`${ROW_SELECTOR}[aria-posinset="${index + 1}"]`) ?? null;
}

function rowIndexOf(target: EventTarget | null): number | null {
  const row = target instanceof Element ? target.closest(ROW_SELECTOR) : null;
  return row ? Number(row.getAttribute('aria-posinset')) - 1 : null;
}

export function useFeedKeys({
  listRef,
  count,
  rowHeight,
  endKnown,
  scrollToIndex,
}: FeedKeysOptions): FeedKeys {
  const [active, setActive] = useState(0);
  const [helpOpen, setHelpOpen] = useState(false);
  const pending = useRef<number | null>(null);

  const focusRow = useCallback(
    (index: number) => {
      const target = Math.max(0, Math.min(count - 1, index));
      setActive(target);
      const row = rowAt(listRef.current, target);
      if (row) {
        row.focus();
        return;
      }
      // Not drawn: scrolled to, then focused by the effect below once the virtualizer draws it.
      pending.current = target;
      scrollToIndex(target);
    },
    [count, listRef, scrollToIndex],
  );

  // Every render may be the one that draws the row waited for.
  useLayoutEffect(() => {
    if (pending.current === null) return;
    const row = rowAt(listRef.current, pending.current);
    if (!row) return;
    pending.current = null;
    row.focus();
  });

  // Links and buttons inside a row are tab stops only in the row that holds the focus: the
  // APG's feed lets Tab go from an article into its own controls, which is what screen reader
  // users expect (their reading keys reach them anyway), while Tab from the list does not walk
  // every link of thousands of rows. Rows are drawn by the row components, which know nothing
  // of this, so it is applied here after every render.
  useLayoutEffect(() => {
    const list = listRef.current;
    if (!list) return;
    for (const row of list.querySelectorAll<HTMLElement>(ROW_SELECTOR)) {
      const inside = Number(row.getAttribute('aria-posinset')) - 1 === active;
      for (const control of row.querySelectorAll<HTMLElement>('a[href], button')) {
        if (inside) control.removeAttribute('tabindex');
        else control.setAttribute('tabindex', '-1');
      }
    }
  });

  const onFocus = useCallback((event: FocusEvent<HTMLElement>) => {
    const index = rowIndexOf(event.target);
    if (index !== null) setActive(index);
  }, []);

  const onKeyDown = useCallback(
    (event: KeyboardEvent<HTMLElement>) => {
      if (event.altKey || event.metaKey) return;
      const index = rowIndexOf(event.target);
      if (index === null) return;
      const onRow = event.target instanceof Element && event.target.matches(ROW_SELECTOR);
      const screen = Math.max(1, Math.floor(window.innerHeight / rowHeight) - 1);
      const move = (to: number) => {
        event.preventDefault();
        focusRow(to);
      };
      // Ctrl+Home / Ctrl+End leave the feed (APG): the browser's own scroll takes them.
      if (event.ctrlKey) return;
      switch (event.key) {
        case 'j':
        case 'ArrowDown':
          return move(index + 1);
        case 'k':
        case 'ArrowUp':
          return move(index - 1);
        case 'PageDown':
          return move(index + screen);
        case 'PageUp':
          return move(index - screen);
        case 'Home':
          return move(0);
        case 'End':
          if (!endKnown) return;
          // Not prevented: the page's End (use-heading-to-end.ts) takes the window to the end
          // and keeps it there as the last pages arrive; the last row is then focused. A list
          // of unknown length ends, as far as this key goes, at its last row drawn so far.
          pending.current = count - 1;
          setActive(count - 1);
          return;
        case 'Enter':
          // Enter on a row opens its platform link, as a click on its title does; on a link
          // inside the row, the link's own Enter does.
          if (onRow) {
            const link = event.currentTarget.ownerDocument.activeElement?.querySelector('a[href]');
            if (link instanceof HTMLElement) {
              event.preventDefault();
              link.click();
            }
          }
          return;
        case '/': {
          const find = document.querySelector<HTMLInputElement>('[role="search"] input');
          if (find) {
            event.preventDefault();
            find.focus();
          }
          return;
        }
        case '?':
          event.preventDefault();
          setHelpOpen(true);
          return;
      }
    },
    [count, focusRow, rowHeight, endKnown],
  );

  const closeHelp = useCallback(() => setHelpOpen(false), []);
  // The row holding the tab stop may have gone with a list that shrank.
  return {
    active: Math.max(0, Math.min(active, count - 1)),
    helpOpen,
    closeHelp,
    onKeyDown,
    onFocus,
  };
}
