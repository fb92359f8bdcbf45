import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import type { WindowListHandle } from '../../lib/window-list-handle.ts';
import { hasPanelParams, NO_PANEL_PARAMS } from '../lib/panel-params.ts';
import { usePanelAddress } from './use-panel-address.ts';

// What a view keeps for its "Whole list" panel: whether it is open (a link that names the
// panel's choices opens with it), the order the panel sorted the list in (row p shows item
// order[p]), and the item a find or a summary jumped to (marked, as a deep link's item is).

export interface WholeListHost {
  open: boolean;
  toggle: () => void;
  /** Positions in the list's own order, in the order shown; null: the list's own order. */
  order: Int32Array | null;
  setOrder: (order: Int32Array | null) => void;
  /** The marked item's position in the list's own order, or -1. */
  marked: number;
  /** Scrolls to the item at `position` (list order) and marks it; `offset`: px kept clear above. */
  jump: (position: number, offset?: number) => void;
  /** The item position (list order) row `row` shows. */
  itemAt: (row: number) => number;
  /** Whether the address bar belongs to the jump (the window has not moved since). */
  holdsAddress: () => boolean;
}

export function useWholeList(
  listRef: RefObject<WindowListHandle | null>,
  /** Called after a jump with the item's position (a playlist puts its index in the address). */
  onJumped?: (position: number) => void,
): WholeListHost {
  const address = usePanelAddress();
  const [open, setOpen] = useState(() => hasPanelParams(address.params));
  const [order, setOrder] = useState<Int32Array | null>(null);
  const [marked, setMarked] = useState(-1);
  const orderRef = useRef(order);
  const onJumpedRef = useRef(onJumped);
  useLayoutEffect(() => {
    orderRef.current = order;
    onJumpedRef.current = onJumped;
  });
  const jumpedY = useRef<number | null>(null);

  const jump = useCallback(
    (position: number, offset = 0) => {
      setMarked(position);
      const current = orderRef.current;
      const row = current ? current.indexOf(position) : position;
      listRef.current?.scrollToIndex(row);
      if (offset > 0) window.scrollBy(0, -offset);
      jumpedY.current = window.scrollY;
      onJumpedRef.current?.(position);
    },
    [listRef],
  );

  const toggle = () => {
    if (open) {
      // Closed: its choices leave the list and the address.
      setOrder(null);
      setMarked(-1);
      address.write(NO_PANEL_PARAMS);
    }
    setOpen(!open);
  };

  return {
    open,
    toggle,
    order,
    setOrder,
    marked,
    jump,
    itemAt: (row) => (order ? (order[row] ?? row) : row),
    holdsAddress: () => {
      if (order !== null) return true;
      if (jumpedY.current !== null && Math.abs(window.scrollY - jumpedY.current) < 2) return true;
      jumpedY.current = null;
      return false;
    },
  };
}
