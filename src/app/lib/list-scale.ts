// Scaled scrolling: a list taller than a browser can lay out (each stops at a height of its own,
// Firefox lowest) is drawn no taller than MAX_LIST_PX, and the window's position
// over it maps to a position in the whole list. Offsets here are from the list's top edge:
// "real" ones are where the window is over the drawn list, "virtual" ones where it would be over
// the list at its full height (row × row height). Above the list nothing is scaled; over it, the
// window's travel maps linearly onto the whole list's (so the scrollbar's thumb is at the row's
// fraction of the list); below it (the footer), the offset is shifted by the height left out.

/**
 * The tallest a list is drawn: well under Firefox's limit, with room for what is above and below
 * the list, and far below Chromium's and WebKit's.
 */
export const MAX_LIST_PX = 8_000_000;

declare global {
  /** Set before the app starts, by tests that try scaling on a shorter list. */
  var catalogueMaxListPx: number | undefined;
}

/** MAX_LIST_PX, or the lower height a test has set. */
export function maxListPx(): number {
  const lowered = globalThis.catalogueMaxListPx;
  return typeof lowered === 'number' && lowered > 0 ? Math.min(lowered, MAX_LIST_PX) : MAX_LIST_PX;
}

export interface ListScale {
  /** Whether the list is drawn shorter than it is. */
  scaled: boolean;
  /** The list's height as drawn. */
  height: number;
  toVirtual(real: number): number;
  toReal(virtual: number): number;
}

const IDENTITY = (offset: number) => offset;

/**
 * The scale for a list of `fullHeight` px seen through a window `viewport` px tall. A list that
 * fits, or a limit no taller than two windows (nothing to scale into), is drawn as it is.
 */
export function listScale(fullHeight: number, viewport: number, limit = maxListPx()): ListScale {
  if (fullHeight <= limit || limit <= 2 * viewport) {
    return { scaled: false, height: fullHeight, toVirtual: IDENTITY, toReal: IDENTITY };
  }
  // The window's travel while it shows part of the list, drawn and whole.
  const realTravel = limit - viewport;
  const virtualTravel = fullHeight - viewport;
  const ratio = virtualTravel / realTravel;
  const cut = fullHeight - limit;
  return {
    scaled: true,
    height: limit,
    toVirtual: (real) => (real <= 0 ? real : real <= realTravel ? real * ratio : real + cut),
    toReal: (virtual) =>
      virtual <= 0 ? virtual : virtual <= virtualTravel ? virtual / ratio : virtual - cut,
  };
}
