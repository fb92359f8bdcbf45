import { z } from 'zod';
import type { ListLookup } from './app-routes.ts';

// The explorer as an oEmbed provider (oembed.com, §2): a blog engine or a chat tool given the
// URL of a list's view asks `/oembed?url=…` and gets the snippet that embeds the list (an
// <iframe> of its embed view). Only JSON is answered; XML is the spec's 501.

export const OEMBED_PATH = '/oembed';

/** The query a consumer sends (oEmbed §2.2): `url`, and optionally `format` and a size. */
export const oembedQuerySchema = z.object({
  url: z.string().min(1).max(2048),
  format: z.string().max(16).optional(),
  maxwidth: z.coerce.number().int().min(1).max(10_000).optional(),
  maxheight: z.coerce.number().int().min(1).max(10_000).optional(),
});

/** A `rich` response (oEmbed §2.3.4), with the card as its thumbnail. */
export const oembedResponseSchema = z.object({
  version: z.literal('1.0'),
  type: z.literal('rich'),
  title: z.string(),
  author_name: z.string().optional(),
  author_url: z.string().optional(),
  provider_name: z.string(),
  provider_url: z.string(),
  cache_age: z.number().int(),
  thumbnail_url: z.string(),
  thumbnail_width: z.number().int(),
  thumbnail_height: z.number().int(),
  html: z.string(),
  width: z.number().int(),
  height: z.number().int(),
});
export type OEmbedResponse = z.infer<typeof oembedResponseSchema>;

/** The embed view of a list: a compact page meant for an <iframe> on another site. */
export function embedPath(list: ListLookup): string {
  const id = encodeURIComponent(list.id);
  switch (list.endpoint) {
    case 'playlist':
      return `/embed/playlist/${id}`;
    case 'channel-videos':
      return `/embed/channel/${id}`;
    case 'channel-playlists':
      return `/embed/channel/${id}/playlists`;
  }
}
