/** Class names joined, the empty ones left out: a primitive's own classes and a caller's. */
export function cx(...names: ReadonlyArray<string | false | null | undefined>): string {
  return names.filter(Boolean).join(' ');
}
