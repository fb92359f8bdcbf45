// Continuations chain pages (spec §2.6, §4.1). A catalogue that hands back a continuation the
// list has already sent would have it loop forever, so the list stops there instead.

/** The next page parameter, or undefined when there is none or it repeats an earlier one. */
export function nextContinuation(
  continuation: string | null,
  pageParams: readonly (string | null)[],
): string | undefined {
  if (continuation === null) return undefined;
  return pageParams.includes(continuation) ? undefined : continuation;
}

/** True when the last page points back at a page the list already holds. */
export function continuationRepeats(
  continuation: string | null | undefined,
  pageParams: readonly unknown[],
): boolean {
  return continuation != null && pageParams.includes(continuation);
}
