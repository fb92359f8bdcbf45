// Where a bar chart's bars stand across its width. The SVG's x axis runs left to right whatever
// the page's direction, so a right-to-left page has its bars laid from the right: the smallest
// bin, read first, is then at the reader's start, as the figure's table and caption are.

export interface BarSlot {
  /** The bar's left edge, in the chart's own units. */
  x: number;
  /** Its middle, where its labels are centred. */
  middle: number;
}

export function barSlots(
  count: number,
  { width, gap, direction }: { width: number; gap: number; direction: 'ltr' | 'rtl' },
): { bar: number; slots: BarSlot[] } {
  const bar = (width - gap * (count + 1)) / Math.max(1, count);
  const slots = Array.from({ length: count }, (_, i) => {
    const fromStart = gap + i * (bar + gap);
    const x = direction === 'rtl' ? width - fromStart - bar : fromStart;
    return { x, middle: x + bar / 2 };
  });
  return { bar, slots };
}
