import { z } from 'zod';
import {
  channelPlaylistSchema,
  channelVideoSchema,
  playlistItemSchema,
  thumbnailSchema,
  type ChannelPlaylist,
  type ChannelVideo,
  type PlaylistItem,
} from './catalogue-schema.ts';
import { endpointNames, type EndpointName } from './endpoints.ts';
import { platformPlaylistUrl, safeExternalUrl, watchUrl } from './platform-links.ts';

// Answers about a whole list, beyond the page-by-page lookups (docs/architecture.md, "Whole
// lists"): the server walks a list's continuation chain (spec §2.6) to its end through its
// page cache and answers a summary, an export in three formats, a stream of the walk for the
// app's "Load all", and what a walk would cost before it starts. The shapes are defined once
// here: the server produces them, the app and the tests parse them, the OpenAPI document is
// generated from them.

export const listKindSchema = z.enum(endpointNames as [EndpointName, ...EndpointName[]]);
export type ListKind = EndpointName;

export const WHOLE_LIST_PATHS = {
  summary: '/api/summary',
  export: '/api/export',
  walk: '/api/walk',
  cost: '/api/walk-cost',
  openapi: '/api/openapi.json',
  reference: '/api/reference',
} as const;

export const exportFormats = ['csv', 'json', 'txt'] as const;
export type ExportFormat = (typeof exportFormats)[number];

export const summaryPath = (list: ListKind, id: string, range?: { from?: number; to?: number }) => {
  const query = new URLSearchParams();
  if (range?.from !== undefined) query.set('from', String(range.from));
  if (range?.to !== undefined) query.set('to', String(range.to));
  const search = query.size > 0 ? `?${query}` : '';
  return `${WHOLE_LIST_PATHS.summary}/${list}/${encodeURIComponent(id)}${search}`;
};
/** With `bom`, a CSV file starts with a byte order mark (for Excel; export-formats.ts). */
export const exportPath = (
  list: ListKind,
  id: string,
  format: ExportFormat,
  { bom = false }: { bom?: boolean } = {},
) => `${WHOLE_LIST_PATHS.export}/${list}/${encodeURIComponent(id)}.${format}${bom ? '?bom=1' : ''}`;
export const walkPath = (list: ListKind, id: string) =>
  `${WHOLE_LIST_PATHS.walk}/${list}/${encodeURIComponent(id)}`;
export const walkCostPath = (list: ListKind, id: string) =>
  `${WHOLE_LIST_PATHS.cost}/${list}/${encodeURIComponent(id)}`;

// ---------------------------------------------------------------------------------------------
// What is measured: a video's duration, a channel playlist's number of videos.

/** The quantity a list's summary adds up: videos have durations, playlists hold videos. */
export type MeasureKind = 'duration' | 'videoCount';
export const measureOf: Record<ListKind, MeasureKind> = {
  playlist: 'duration',
  'channel-videos': 'duration',
  'channel-playlists': 'videoCount',
};

/** An item of any list, as a summary and an export see it. */
export type ListItem<L extends ListKind = ListKind> = {
  playlist: PlaylistItem;
  'channel-videos': ChannelVideo;
  'channel-playlists': ChannelPlaylist;
}[L];

/**
 * The item's measure, or null when it has none a total could use: a live stream or a video
 * whose duration the upstream left out (spec §3.4).
 */
export function measureValue(list: ListKind, item: ListItem): number | null {
  if (list === 'channel-playlists') return (item as ChannelPlaylist).videoCount;
  const { duration } = item as PlaylistItem | ChannelVideo;
  return duration === null ? null : duration;
}

/**
 * A view count from the platform's display text ("1.2K views", "No views", "1 view"): playlist
 * items carry only that text (spec §3.1), so sorting or charting them by views reads it back,
 * to the precision the text has. Null when the text says no number.
 */
export function viewsFromText(text: string): number | null {
  if (/^no views$/i.test(text.trim())) return 0;
  const match = /^([\d.,]+)\s*([KMB])?/i.exec(text.trim());
  if (match === null) return null;
  const value = Number((match[1] as string).replaceAll(',', ''));
  if (!Number.isFinite(value)) return null;
  const scale = { K: 1e3, M: 1e6, B: 1e9 }[(match[2] ?? '').toUpperCase()] ?? 1;
  return Math.round(value * scale);
}

/** An item's views as a number: exact on a channel's videos, read from the text in playlists. */
export function itemViews(list: ListKind, item: ListItem): number | null {
  if (list === 'channel-videos') return (item as ChannelVideo).viewCount;
  if (list === 'playlist') return viewsFromText((item as PlaylistItem).viewsText);
  return null;
}

/** Where an item opens on the platform: a video's watch page, or a playlist's page. */
export function itemUrl(list: ListKind, item: ListItem, listId?: string): string {
  if (list === 'channel-playlists') {
    const playlist = item as ChannelPlaylist;
    return safeExternalUrl(playlist.url, platformPlaylistUrl(playlist.id));
  }
  if (list === 'playlist') {
    const video = item as PlaylistItem;
    return watchUrl(video.id, listId, video.index);
  }
  return watchUrl(item.id);
}

// ---------------------------------------------------------------------------------------------
// The summary: GET /api/summary/{list}/{id}[?from=A&to=B]

/** An item that stands out (the shortest, the longest), where it is in the list. */
export const notableItemSchema = z.object({
  /** 1-based position in the list's order (a playlist item's `index`). */
  position: z.number().int().positive(),
  id: z.string(),
  title: z.string(),
  value: z.number().nonnegative(),
});
export type NotableItem = z.infer<typeof notableItemSchema>;

/** Why a walk ended before the list did. */
export const walkStopSchema = z.object({
  code: z.string(),
  detail: z.string(),
  retryAfter: z.number().int().nonnegative().optional(),
});
export type WalkStop = z.infer<typeof walkStopSchema>;

export const listSummarySchema = z.object({
  list: listKindSchema,
  id: z.string(),
  /** The list's title when the upstream names it (a playlist's first page does). */
  title: z.string().nullable(),
  /** False when the walk ended before the list did (quota spent, upstream failure). */
  complete: z.boolean(),
  stoppedBy: walkStopSchema.nullable(),
  /** Pages read for this answer. */
  pages: z.number().int().nonnegative(),
  /** A playlist's length as its first page states it (spec §3.1); null for a channel's lists. */
  totalItems: z.number().int().nonnegative().nullable(),
  /** Items found in the list (or in the range) by reading it. */
  count: z.number().int().nonnegative(),
  /** The range asked for, as applied: `to` cut to the list's end when it was past it. */
  range: z
    .object({
      from: z.number().int().positive(),
      to: z.number().int().positive(),
      requestedTo: z.number().int().positive(),
      clipped: z.boolean(),
    })
    .nullable(),
  measure: z.object({
    kind: z.enum(['duration', 'videoCount']),
    /** Seconds for durations, videos for playlists. */
    unit: z.enum(['seconds', 'videos']),
    /** The exact sum over the items that have a value. */
    total: z.number().int().nonnegative(),
    /** Items with a value. */
    counted: z.number().int().nonnegative(),
    /** Items with no usable value (live streams, missing durations). */
    missing: z.number().int().nonnegative(),
    average: z.number().nonnegative().nullable(),
    median: z.number().nonnegative().nullable(),
    shortest: notableItemSchema.nullable(),
    longest: notableItemSchema.nullable(),
  }),
});
export type ListSummary = z.infer<typeof listSummarySchema>;

/**
 * A range bound as written in a query: a whole number from 1, plainly (no sign, exponent, hex,
 * spaces or leading zero), at most nine digits. The server reads bounds with this pattern; the
 * schema below says the same for the OpenAPI document.
 */
export const RANGE_BOUND_PATTERN = /^[1-9][0-9]{0,8}$/;
const rangeBound = z.coerce.number().int().min(1).max(999_999_999);

/** `?from=A&to=B` of a summary: 1-based, inclusive, A ≤ B; either may be left out. */
export const rangeQuerySchema = z
  .object({ from: rangeBound.optional(), to: rangeBound.optional() })
  .refine((r) => r.from === undefined || r.to === undefined || r.from <= r.to, {
    message: '`from` is after `to`',
  });

// ---------------------------------------------------------------------------------------------
// What a walk costs, before it starts: GET /api/walk-cost/{list}/{id}

export const quotaStateSchema = z.object({
  /** Upstream calls allowed per window: the name is from when the window was always an hour. */
  budgetPerHour: z.number().int().nonnegative(),
  /** The window the budget is counted over, in seconds (3600 for an hour, 86400 for a day). */
  windowSeconds: z.number().int().positive(),
  remaining: z.number().int().nonnegative(),
  /** Seconds until an upstream 429's pause ends (0: none). */
  pausedForSeconds: z.number().int().nonnegative(),
});

export const walkCostSchema = z.object({
  list: listKindSchema,
  id: z.string(),
  totalItems: z.number().int().nonnegative().nullable(),
  /** Pages in the whole list: ceil(totalItems / page size); null when the list states no length. */
  pages: z.number().int().nonnegative().nullable(),
  /** Pages of the chain's start already in the server's cache (they cost nothing). */
  cachedPages: z.number().int().nonnegative(),
  /** Upstream calls the walk would spend; null when unknown (a channel's lists). */
  lookups: z.number().int().nonnegative().nullable(),
  quota: quotaStateSchema,
  /** The asking client's share of the window (a walk must fit it as well as the window). */
  share: z
    .object({
      perClient: z.number().int().nonnegative(),
      remaining: z.number().int().nonnegative(),
    })
    .optional(),
  /** False when the window's remaining quota, or the client's share, cannot cover `lookups`. */
  affordable: z.boolean(),
  /** When not affordable: which of the two is short. */
  limitedBy: z.enum(['quota', 'share']).optional(),
  /** When not affordable: seconds until it would be. */
  retryAfter: z.number().int().nonnegative().optional(),
});
export type WalkCost = z.infer<typeof walkCostSchema>;

// ---------------------------------------------------------------------------------------------
// The walk as a stream, for the app's "Load all": GET /api/walk/{list}/{id}
// NDJSON, one event a line (application/x-ndjson).

export const walkProgressSchema = z.object({
  pages: z.number().int().nonnegative(),
  items: z.number().int().nonnegative(),
  /** A playlist's stated length, when known. */
  totalItems: z.number().int().nonnegative().nullable(),
});
export type WalkProgress = z.infer<typeof walkProgressSchema>;

export const walkEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('start'), cost: walkCostSchema }),
  z.object({
    type: z.literal('page'),
    /** The continuation this page was asked for with; null for the first page. */
    param: z.string().nullable(),
    /** The page as the lookup answers it (checked by the client against the endpoint's schema). */
    page: z.unknown(),
    progress: walkProgressSchema,
  }),
  z.object({
    type: z.literal('end'),
    complete: z.boolean(),
    stoppedBy: walkStopSchema.nullable(),
    progress: walkProgressSchema,
  }),
]);
export type WalkEvent = z.infer<typeof walkEventSchema>;

// ---------------------------------------------------------------------------------------------
// Exports: GET /api/export/{list}/{id}.{csv|json|txt}
//
// CSV (RFC 4180) has one column per field of the item (spec §3), thumbnails as their JSON
// array, then the item's URL; JSON is one array of the items as the lookups give them, each with
// its URL; TXT is one URL a line. The columns are written down here so that a reader (the tests,
// a script) can turn a row back into the item.

interface ExportColumn {
  name: string;
  /** The field as CSV text (null: an empty field). */
  text: (item: never) => string | number | null;
  /** The field back from CSV text. */
  parse: (text: string) => unknown;
}

/**
 * What makes a spreadsheet read a cell as a formula rather than text (OWASP's list for CSV
 * injection: =, +, -, @, tab, carriage return; line feed, and the full-width forms some
 * spreadsheets also take), and the apostrophe that marks a neutralised cell.
 */
const FORMULA_START = /^['=+\-@\t\r\n\uff1d\uff0b\uff0d\uff20]/;

/**
 * A text cell as the CSV export writes it: one that a spreadsheet would evaluate gets a `'`
 * before it (shown as text, never run), and so that the mark can be told from the data, one
 * that already begins with `'` gets another. Undone by `fromSpreadsheetSafe`.
 */
export const spreadsheetSafe = (text: string) => (FORMULA_START.test(text) ? `'${text}` : text);

/** A text cell of the CSV export back as the data: one leading `'` comes off. */
export const fromSpreadsheetSafe = (text: string) => (text.startsWith("'") ? text.slice(1) : text);

const asText = fromSpreadsheetSafe;
const asInt = (t: string) => Number.parseInt(t, 10);
const asNullableInt = (t: string) => (t === '' ? null : Number.parseInt(t, 10));
const asNullableText = (t: string) => (t === '' ? null : fromSpreadsheetSafe(t));
const thumbnailsColumn = {
  name: 'thumbnails',
  text: (item: { thumbnails: unknown }) => JSON.stringify(item.thumbnails),
  parse: (t: string) => z.array(thumbnailSchema).parse(JSON.parse(t)),
};

export const EXPORT_COLUMNS: Record<ListKind, readonly ExportColumn[]> = {
  playlist: [
    { name: 'index', text: (i: PlaylistItem) => i.index, parse: asInt },
    { name: 'id', text: (i: PlaylistItem) => i.id, parse: asText },
    { name: 'title', text: (i: PlaylistItem) => i.title, parse: asText },
    { name: 'channelId', text: (i: PlaylistItem) => i.channelId, parse: asText },
    { name: 'channelTitle', text: (i: PlaylistItem) => i.channelTitle, parse: asText },
    { name: 'duration', text: (i: PlaylistItem) => i.duration, parse: asNullableInt },
    { name: 'viewsText', text: (i: PlaylistItem) => i.viewsText, parse: asText },
    { name: 'publishedText', text: (i: PlaylistItem) => i.publishedText, parse: asText },
    thumbnailsColumn,
  ],
  'channel-videos': [
    { name: 'id', text: (i: ChannelVideo) => i.id, parse: asText },
    { name: 'title', text: (i: ChannelVideo) => i.title, parse: asText },
    { name: 'duration', text: (i: ChannelVideo) => i.duration, parse: asNullableInt },
    { name: 'viewCount', text: (i: ChannelVideo) => i.viewCount, parse: asInt },
    { name: 'publishedText', text: (i: ChannelVideo) => i.publishedText, parse: asNullableText },
    {
      name: 'descriptionSnippet',
      text: (i: ChannelVideo) => i.descriptionSnippet,
      parse: asText,
    },
    thumbnailsColumn,
  ],
  'channel-playlists': [
    { name: 'id', text: (i: ChannelPlaylist) => i.id, parse: asText },
    { name: 'title', text: (i: ChannelPlaylist) => i.title, parse: asText },
    { name: 'videoCount', text: (i: ChannelPlaylist) => i.videoCount, parse: asInt },
    { name: 'url', text: (i: ChannelPlaylist) => i.url, parse: asText },
    thumbnailsColumn,
  ],
};

/** The last column of every CSV row, and the field every JSON item gains. */
export const ITEM_URL_FIELD = 'itemUrl';

/** Exported items as JSON has them: the lookup's item plus its URL. */
export const exportedItemSchemas = {
  playlist: playlistItemSchema.extend({ [ITEM_URL_FIELD]: z.string() }),
  'channel-videos': channelVideoSchema.extend({ [ITEM_URL_FIELD]: z.string() }),
  'channel-playlists': channelPlaylistSchema.extend({ [ITEM_URL_FIELD]: z.string() }),
} as const;

export const EXPORT_TYPES: Record<ExportFormat, string> = {
  csv: 'text/csv; charset=utf-8; header=present',
  json: 'application/json; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
};

/** The most walks one client may have running at once. */
export const WALKS_PER_CLIENT = 2;

/** A playlist page holds up to 100 items (spec §4.1): a walk of N items reads ceil(N / 100). */
export const PLAYLIST_PAGE_SIZE = 100;
