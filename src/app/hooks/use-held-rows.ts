import { LIST_ROW_SELECTOR } from '../../shared/app-render.ts';
import { useLayoutEffect, useState, type RefObject } from 'react';

// A virtual list drops the rows that leave the window. A row that holds the keyboard focus or
// an end of the reader's text selection must not go with them: the focus would fall back to the
// page's start and the selection would vanish. Above all when the app takes over the server's
// page, whose rows the reader may have focused or selected before any script ran, and which
// the list then thins to the rows around the window.

/** Positions (0-based, ascending) of the rows of `list` that hold the focus or a selection end. */
function heldRows(list: HTMLElement): number[] {
  const held = new Set<number>();
  const note = (node: Node | null | undefined) => {
    const element = node instanceof Element ? node : node?.parentElement;
    const row = element?.closest(LIST_ROW_SELECTOR);
    if (row && list.contains(row)) held.add(Number(row.getAttribute('aria-posinset')) - 1);
  };
  note(document.activeElement);
  const selection = document.getSelection();
  if (selection && !selection.isCollapsed) {
    note(selection.anchorNode);
    note(selection.focusNode);
  }
  return [...held].filter((index) => index >= 0).sort((a, b) => a - b);
}

const same = (a: readonly number[], b: readonly number[]) =>
  a.length === b.length && a.every((value, i) => value === b[i]);

/**
 * The rows of the list at `listRef` the list must keep drawing wherever the window is; read
 * when the list mounts (before hydration thins the server's rows) and as focus and selection
 * move.
 */
export function useHeldRows(listRef: RefObject<HTMLElement | null>): readonly number[] {
  const [held, setHeld] = useState<readonly number[]>([]);
  useLayoutEffect(() => {
    const update = () => {
      const list = listRef.current;
      if (!list) return;
      const next = heldRows(list);
      setHeld((current) => (same(current, next) ? current : next));
    };
    update();
    document.addEventListener('focusin', update);
    document.addEventListener('focusout', update);
    document.addEventListener('selectionchange', update);
    return () => {
      document.removeEventListener('focusin', update);
      document.removeEventListener('focusout', update);
      document.removeEventListener('selectionchange', update);
    };
  }, [listRef]);
  return held;
}
