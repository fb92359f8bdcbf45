/**
 * Seconds from `position` (1-based) to the end of a list of `total` items. Exact when every
 * item from there on is loaded with its duration; otherwise the missing ones count at the
 * loaded items' average, and the answer says it is an estimate. Null: nothing to go on.
 */
export function timeLeft(
  items: ReadonlyArray<{ index: number; duration: number | null } | undefined>,
  position: number,
  total: number,
): { seconds: number; exact: boolean } | null {
  let known = 0;
  let knownAfter = 0;
  let sumAll = 0;
  let sumAfter = 0;
  for (const item of items) {
    if (!item || item.duration === null) continue;
    known++;
    sumAll += item.duration;
    if (item.index >= position) {
      knownAfter++;
      sumAfter += item.duration;
    }
  }
  if (known === 0) return null;
  const missing = Math.max(0, total - position + 1 - knownAfter);
  return { seconds: Math.round(sumAfter + (missing * sumAll) / known), exact: missing === 0 };
}
