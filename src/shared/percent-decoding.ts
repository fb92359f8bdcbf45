/**
 * Percent-decoding (and nothing else: a `+` stays `+`), or null when the text is not valid
 * percent-encoding. For paths and queries that arrive from anyone: a malformed one is refused
 * with a clear answer rather than thrown.
 */
export function decodeOrNull(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}
