// The one thing code outside the window list may ask of it: to scroll to a row. Kept apart from
// the component so that hooks which scroll a list (a deep link's seek, the Whole list panel's
// jumps) depend on this promise and not on the component that keeps it.

export interface WindowListHandle {
  /** Scrolls the window so that row `index` (0-based position) is at the top, just below a sliver of the row before. */
  scrollToIndex(index: number): void;
}
