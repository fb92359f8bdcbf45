import { z } from 'zod';

// Shapes of real platform IDs (../shared/spec/upstream-notes.md, "What real data looks like").
// The server checks them before spending upstream quota; the app uses them to read pasted URLs.

/** Playlist IDs: a two-letter kind prefix (PL, UU, OL, RD, LL, FL…) and a body of URL-safe characters. */
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

export const playlistIdSchema = z.string().regex(PLAYLIST_ID_PATTERN, 'not a playlist ID');
export const channelIdSchema = z.string().regex(CHANNEL_ID_PATTERN, 'not a channel ID');
export const videoIdSchema = z.string().regex(VIDEO_ID_PATTERN, 'not a video ID');
export const continuationSchema = z
  .string()
  .min(1, 'empty continuation')
  .max(CONTINUATION_MAX_LENGTH, `continuation longer than ${CONTINUATION_MAX_LENGTH} characters`)
  .regex(CONTINUATION_PATTERN, 'continuation holds characters other than printable ASCII');
