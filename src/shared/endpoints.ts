import type { z } from 'zod';
import {
  channelPlaylistsPageSchema,
  channelVideosPageSchema,
  playlistPageSchema,
} from './catalogue-schema.ts';
import { channelIdSchema, playlistIdSchema } from './ids.ts';

// The three lookups of spec §4, as one table: path, which ID shape each takes and which page
// schema each answers with. Catalogue, server and app all route by this table.

export const API_PREFIX = '/api/v1';

export const endpoints = {
  playlist: {
    path: `${API_PREFIX}/playlist`,
    idSchema: playlistIdSchema,
    pageSchema: playlistPageSchema,
  },
  'channel-videos': {
    path: `${API_PREFIX}/channel-videos`,
    idSchema: channelIdSchema,
    pageSchema: channelVideosPageSchema,
  },
  'channel-playlists': {
    path: `${API_PREFIX}/channel-playlists`,
    idSchema: channelIdSchema,
    pageSchema: channelPlaylistsPageSchema,
  },
} as const;

export type EndpointName = keyof typeof endpoints;
export const endpointNames = Object.keys(endpoints) as EndpointName[];
/** The page an endpoint answers with, as its schema parses it. */
export type EndpointPage<E extends EndpointName> = z.infer<(typeof endpoints)[E]['pageSchema']>;
