import { z } from 'zod';
import { CHANNEL_ID_PATTERN, PLAYLIST_ID_PATTERN } from './id-patterns.ts';
import { problemSchema } from './problem.ts';

// A list's feed: `/feeds/playlist/ID` and `/feeds/channel/ID` (the channel's videos), in
// Atom, RSS 2.0 or JSON Feed 1.1, named by an extension (`.atom`, `.rss`, `.json`) or, without
// one, by the Accept header (Atom when it names none of them). Read by the server's route and by
// the views' heads, which point feed readers at them.

export const FEEDS_PREFIX = '/feeds';

export const FEED_FORMATS = {
  atom: { extension: 'atom', type: 'application/atom+xml' },
  rss: { extension: 'rss', type: 'application/rss+xml' },
  json: { extension: 'json', type: 'application/feed+json' },
} as const;

export type FeedFormat = keyof typeof FEED_FORMATS;
export type FeedList = 'playlist' | 'channel';

export function feedPath(list: FeedList, id: string, format?: FeedFormat): string {
  const extension = format === undefined ? '' : `.${FEED_FORMATS[format].extension}`;
  return `${FEEDS_PREFIX}/${list}/${encodeURIComponent(id)}${extension}`;
}

export interface FeedAddress {
  list: FeedList;
  id: string;
  /** Named by the path; undefined: the Accept header chooses. */
  format?: FeedFormat;
}

const FEED_PATH = /^\/feeds\/(playlist|channel)\/([^/.]+)(?:\.(atom|rss|json))?$/;

/** The feed a path names; null for anything else, a malformed ID included. */
export function readFeedPath(pathname: string): FeedAddress | null {
  const match = FEED_PATH.exec(pathname);
  if (!match) return null;
  const [, list, raw, extension] = match as unknown as [string, FeedList, string, string?];
  let id: string;
  try {
    id = decodeURIComponent(raw);
  } catch {
    return null;
  }
  const pattern = list === 'playlist' ? PLAYLIST_ID_PATTERN : CHANNEL_ID_PATTERN;
  if (!pattern.test(id)) return null;
  const format = (Object.keys(FEED_FORMATS) as FeedFormat[]).find(
    (name) => FEED_FORMATS[name].extension === extension,
  );
  return { list, id, format };
}

/**
 * `/feeds/updates?lists=playlist:ID,channel:ID,…`: many lists' feeds in one answer, for the
 * Following view (a line of NDJSON per list as each is ready). At most UPDATES_MAX_LISTS a
 * request, which keeps its URL short; a longer follow list asks in several.
 */
export const FEED_UPDATES_PATH = `${FEEDS_PREFIX}/updates`;
export const UPDATES_MAX_LISTS = 100;

export const updatesPath = (lists: ReadonlyArray<{ kind: FeedList; id: string }>) =>
  `${FEED_UPDATES_PATH}?lists=${lists.map(({ kind, id }) => `${kind}:${encodeURIComponent(id)}`).join(',')}`;

/** The lists an updates request names; null when any is malformed or there are too many. */
export function readUpdatesQuery(
  value: string | undefined,
): Array<{ list: FeedList; id: string }> | null {
  if (!value) return null;
  const parts = value.split(',');
  if (parts.length > UPDATES_MAX_LISTS) return null;
  const lists: Array<{ list: FeedList; id: string }> = [];
  for (const part of parts) {
    const [kind, id, ...rest] = part.split(':');
    if (rest.length > 0 || (kind !== 'playlist' && kind !== 'channel') || !id) return null;
    const read = readFeedPath(`${FEEDS_PREFIX}/${kind}/${id}`);
    if (read === null) return null;
    lists.push({ list: read.list, id: read.id });
  }
  return lists;
}

/**
 * A JSON Feed 1.1 document (jsonfeed.org/version/1.1), as far as the explorer reads one: its
 * title and, for each item, its URL, the explorer's view of it, title, image and date.
 */
export const jsonFeedSchema = z.looseObject({
  version: z.string(),
  title: z.string(),
  items: z.array(
    z.looseObject({
      id: z.string(),
      url: z.string(),
      external_url: z.string().optional(),
      title: z.string().optional(),
      image: z.string().optional(),
      date_published: z.string().optional(),
    }),
  ),
});

export type JsonFeed = z.infer<typeof jsonFeedSchema>;

/** A line of the updates answer: a list's feed and what reading it cost, or its problem. */
export const feedUpdateLineSchema = z.union([
  z.object({ list: z.string(), lookups: z.number().int().min(0), feed: jsonFeedSchema }),
  z.object({ list: z.string(), problem: problemSchema }),
]);

export type FeedUpdateLine = z.infer<typeof feedUpdateLineSchema>;
