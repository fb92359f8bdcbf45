import { z } from 'zod';
import {
  CHANNEL_ID_PATTERN,
  CONTINUATION_MAX_LENGTH,
  CONTINUATION_PATTERN,
  PLAYLIST_ID_PATTERN,
} from './id-patterns.ts';

// The ID and continuation shapes (id-patterns.ts) as schemas, for the endpoint table.

export const playlistIdSchema = z.string().regex(PLAYLIST_ID_PATTERN, 'not a playlist ID');
export const channelIdSchema = z.string().regex(CHANNEL_ID_PATTERN, 'not a channel ID');
export const continuationSchema = z
  .string()
  .min(1, 'empty continuation')
  .max(CONTINUATION_MAX_LENGTH, `continuation longer than ${CONTINUATION_MAX_LENGTH} characters`)
  .regex(CONTINUATION_PATTERN, 'continuation holds characters other than printable ASCII');
