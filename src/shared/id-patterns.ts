// Shapes of real platform IDs (spec §2.4) as plain patterns. The server checks them before
// spending upstream quota; the app reads pasted URLs and its own routes with them. Kept apart
// from the zod schemas (ids.ts) so that the app's entry chunk, which reads routes, needs no zod.

/**
 * Playlist IDs: a two-letter kind prefix (PL, UU, OL, RD, LL, FL…) and a body of URL-safe
 * characters, looser than the real `PL` + 32 so that every kind of list gets through.
 */
export const PLAYLIST_ID_PATTERN = /^[A-Z]{2}[A-Za-z0-9_-]{10,70}$/;
/** Channel IDs: `UC` followed by exactly 22 URL-safe characters. */
export const CHANNEL_ID_PATTERN = /^UC[A-Za-z0-9_-]{22}$/;
/** Video IDs: exactly 11 URL-safe characters. */
export const VIDEO_ID_PATTERN = /^[A-Za-z0-9_-]{11}$/;

/**
 * Continuations are opaque (spec §2.6): any printable ASCII without spaces passes, byte for
 * byte. Real ones contain `%`, `=`, `+` and `/`. The bound keeps a hostile client from
 * making the proxy forward megabytes.
 */
export const CONTINUATION_MAX_LENGTH = 4096;
export const CONTINUATION_PATTERN = /^[\x21-\x7E]+$/;
