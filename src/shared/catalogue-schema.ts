import { z } from 'zod';

// The Video Catalogue Lookup Service's page shapes (docs/catalogue-api.md, spec §3), defined
// once: the embedded catalogue emits them, the server checks upstream answers with them and
// the app parses what the server sends with them. Unknown fields are stripped, so a newer
// upstream that adds fields keeps working (spec §3.4).

const count = z.number().int().nonnegative();

/** §2.5 */
export const thumbnailSchema = z.object({
  url: z.string().min(1),
  width: count,
  height: count,
});

/**
 * Durations are integers in the spec's tables, but the real provider sends null for live
 * streams, so a robust client tolerates null on any video (spec §3.4).
 */
const durationSchema = count.nullable();

/** §3.1, field `info` of the first playlist page. */
export const playlistInfoSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  thumbnails: z.array(thumbnailSchema),
  channelId: z.string(),
  channelTitle: z.string(),
  totalItems: count,
  views: count,
  lastUpdated: z.string(),
  url: z.string(),
});

/** §3.1, an element of a playlist page's `items`. `index` is 1-based, as in `&index=N` links. */
export const playlistItemSchema = z.object({
  index: z.number().int().positive(),
  id: z.string(),
  title: z.string(),
  thumbnails: z.array(thumbnailSchema),
  channelId: z.string(),
  channelTitle: z.string(),
  viewsText: z.string(),
  publishedText: z.string(),
  duration: durationSchema,
});

/** §3.2 */
export const channelVideoSchema = z.object({
  id: z.string(),
  title: z.string(),
  descriptionSnippet: z.string(),
  thumbnails: z.array(thumbnailSchema),
  duration: durationSchema,
  viewCount: count,
  publishedText: z.string().nullable(),
});

/** §3.3 */
export const channelPlaylistSchema = z.object({
  id: z.string(),
  title: z.string(),
  thumbnails: z.array(thumbnailSchema),
  url: z.string(),
  videoCount: count,
});

/** §2.6: null when no further pages remain. */
const continuationField = z.string().min(1).nullable();

/** §3.1, §4.1: `info` only on the first page (a request without continuation). */
export const playlistPageSchema = z.object({
  info: playlistInfoSchema.optional(),
  items: z.array(playlistItemSchema).max(100),
  continuation: continuationField,
});

/** §3.2, §4.2 */
export const channelVideosPageSchema = z.object({
  items: z.array(channelVideoSchema),
  continuation: continuationField,
});

/** §3.3, §4.3 */
export const channelPlaylistsPageSchema = z.object({
  items: z.array(channelPlaylistSchema),
  continuation: continuationField,
});

export type Thumbnail = z.infer<typeof thumbnailSchema>;
export type PlaylistInfo = z.infer<typeof playlistInfoSchema>;
export type PlaylistItem = z.infer<typeof playlistItemSchema>;
export type ChannelVideo = z.infer<typeof channelVideoSchema>;
export type ChannelPlaylist = z.infer<typeof channelPlaylistSchema>;
export type PlaylistPage = z.infer<typeof playlistPageSchema>;
export type ChannelVideosPage = z.infer<typeof channelVideosPageSchema>;
export type ChannelPlaylistsPage = z.infer<typeof channelPlaylistsPageSchema>;
