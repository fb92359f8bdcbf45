import { z } from 'zod';

// The Video Catalogue Lookup Service contract (../shared/spec/catalogue-api.md §2 and §4),
// defined once: the embedded catalogue emits it, the server checks upstream answers with it
// and the app parses what the server sends with it. Unknown fields are stripped, so a newer
// upstream that adds fields keeps working.

const count = z.number().int().nonnegative();

/** §2.1 */
export const thumbnailSchema = z.object({
  url: z.string().min(1),
  width: count,
  height: count,
});

/**
 * Durations are integers in the spec, but the real provider sends null for live streams
 * (upstream-notes.md), so a robust client tolerates null on any video.
 */
const durationSchema = count.nullable();

/** §2.2, field `info` of the first playlist page. */
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

/** §2.3. `index` is 1-based, as in the platform's own `&index=N` links. */
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

/** §2.4 */
export const channelVideoSchema = z.object({
  id: z.string(),
  title: z.string(),
  descriptionSnippet: z.string(),
  thumbnails: z.array(thumbnailSchema),
  duration: durationSchema,
  viewCount: count,
  publishedText: z.string().nullable(),
});

/** §2.5 */
export const channelPlaylistSchema = z.object({
  id: z.string(),
  title: z.string(),
  thumbnails: z.array(thumbnailSchema),
  url: z.string(),
  videoCount: count,
});

/** §2.6: null when no further pages remain. */
const continuationField = z.string().min(1).nullable();

/** §4.1: `info` only on the first page (a request without continuation). */
export const playlistPageSchema = z.object({
  info: playlistInfoSchema.optional(),
  items: z.array(playlistItemSchema).max(100),
  continuation: continuationField,
});

/** §4.2 */
export const channelVideosPageSchema = z.object({
  items: z.array(channelVideoSchema),
  continuation: continuationField,
});

/** §4.3 */
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
