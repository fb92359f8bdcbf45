import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { DEMO_DATA_VERSION, DEMO_SEED, generateDemoCatalogue } from './demo-data.ts';

// Every query of the catalogue lives in this module, so that a server database could replace
// the embedded SQLite file without touching the rest. Paging is keyset-based (spec §5.2):
// each query seeks an index to the position carried by the continuation and reads one row
// more than a page, which tells whether another page exists without ever answering an empty
// trailing page.

export interface PlaylistRow {
  id: string;
  channelId: string;
  channelTitle: string;
  title: string;
  description: string;
  viewCount: number;
  updatedAt: number;
  itemCount: number;
}

export interface PlaylistItemRow {
  position: number;
  videoId: string;
  title: string;
  channelId: string;
  channelTitle: string;
  duration: number | null;
  viewCount: number;
  publishedAt: number;
}

export interface ChannelVideoRow {
  id: string;
  title: string;
  description: string;
  duration: number | null;
  viewCount: number;
  publishedAt: number;
  publishedKnown: number;
}

export interface ChannelPlaylistRow {
  id: string;
  title: string;
  ordinal: number;
  itemCount: number;
}

export interface Slice<Row> {
  rows: Row[];
  hasMore: boolean;
}

export interface CatalogueStore {
  playlist(id: string): PlaylistRow | undefined;
  /** Items after `afterPosition` (0 for the first page), in playlist order. */
  playlistItems(id: string, afterPosition: number, limit: number): Slice<PlaylistItemRow>;
  channelExists(id: string): boolean;
  videoExists(id: string): boolean;
  /** Newest first; `after` is the (publishedAt, id) of the last row already sent. */
  channelVideos(id: string, after: [number, string] | null, limit: number): Slice<ChannelVideoRow>;
  /** In channel order; `afterOrdinal` is -1 for the first page. */
  channelPlaylists(id: string, afterOrdinal: number, limit: number): Slice<ChannelPlaylistRow>;
  close(): void;
}

const SCHEMA = `
  CREATE TABLE channel (
    id TEXT PRIMARY KEY,
    title TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE video (
    id TEXT PRIMARY KEY,
    channel_id TEXT NOT NULL REFERENCES channel(id),
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    duration INTEGER,
    view_count INTEGER NOT NULL,
    published_at INTEGER NOT NULL,
    published_known INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX video_by_channel ON video (channel_id, published_at DESC, id DESC);
  CREATE TABLE playlist (
    id TEXT PRIMARY KEY,
    channel_id TEXT NOT NULL REFERENCES channel(id),
    title TEXT NOT NULL,
    description TEXT NOT NULL,
    view_count INTEGER NOT NULL,
    updated_at INTEGER NOT NULL,
    ordinal INTEGER NOT NULL,
    item_count INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE UNIQUE INDEX playlist_by_channel ON playlist (channel_id, ordinal);
  CREATE TABLE playlist_item (
    playlist_id TEXT NOT NULL REFERENCES playlist(id),
    position INTEGER NOT NULL,
    video_id TEXT NOT NULL REFERENCES video(id),
    PRIMARY KEY (playlist_id, position)
  ) WITHOUT ROWID;
`;

function buildDemoDatabase(path: string): void {
  const data = generateDemoCatalogue();
  const db = new DatabaseSync(path);
  try {
    db.exec('PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;');
    db.exec(SCHEMA);
    db.exec('BEGIN');
    const channel = db.prepare('INSERT INTO channel VALUES (?, ?)');
    for (const c of data.channels) channel.run(c.id, c.title);
    const video = db.prepare('INSERT INTO video VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    for (const v of data.videos) {
      video.run(
        v.id,
        v.channelId,
        v.title,
        v.description,
        v.duration,
        v.viewCount,
        v.publishedAt,
        v.publishedKnown ? 1 : 0,
      );
    }
    const playlist = db.prepare('INSERT INTO playlist VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    const item = db.prepare('INSERT INTO playlist_item VALUES (?, ?, ?)');
    for (const p of data.playlists) {
      playlist.run(
        p.id,
        p.channelId,
        p.title,
        p.description,
        p.viewCount,
        p.updatedAt,
        p.ordinal,
        p.videoIds.length,
      );
      // Positions are 1-based, as in the platform's own `&index=N` links.
      p.videoIds.forEach((videoId, i) => item.run(p.id, i + 1, videoId));
    }
    db.exec('COMMIT');
    db.exec('ANALYZE');
  } finally {
    db.close();
  }
}

/**
 * Opens the demo database under `dataDir`, building it on first use. The file name carries
 * the generator's version and seed, so a changed generator gets a fresh file. The build
 * writes to a temporary file and renames it, so concurrent starts never see half a database.
 */
export function openDemoStore(dataDir: string): CatalogueStore {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, `catalogue-v${DEMO_DATA_VERSION}-${DEMO_SEED}.sqlite`);
  if (!existsSync(path)) {
    const temporary = `${path}.${process.pid}.${Date.now()}.tmp`;
    try {
      buildDemoDatabase(temporary);
      renameSync(temporary, path);
    } finally {
      rmSync(temporary, { force: true });
    }
  }
  return createStore(new DatabaseSync(path, { readOnly: true }));
}

function slice<Row>(rows: unknown[], limit: number): Slice<Row> {
  return { rows: rows.slice(0, limit) as Row[], hasMore: rows.length > limit };
}

export function createStore(db: DatabaseSync): CatalogueStore {
  const playlist = db.prepare(`
    SELECT p.id, p.channel_id AS channelId, c.title AS channelTitle, p.title, p.description,
           p.view_count AS viewCount, p.updated_at AS updatedAt, p.item_count AS itemCount
    FROM playlist p JOIN channel c ON c.id = p.channel_id
    WHERE p.id = ?`);
  const playlistItems = db.prepare(`
    SELECT i.position, v.id AS videoId, v.title, v.channel_id AS channelId, c.title AS channelTitle,
           v.duration, v.view_count AS viewCount, v.published_at AS publishedAt
    FROM playlist_item i
    JOIN video v ON v.id = i.video_id
    JOIN channel c ON c.id = v.channel_id
    WHERE i.playlist_id = ? AND i.position > ?
    ORDER BY i.position
    LIMIT ?`);
  const channelExists = db.prepare('SELECT 1 FROM channel WHERE id = ?');
  const videoExists = db.prepare('SELECT 1 FROM video WHERE id = ?');
  const channelVideosFirst = db.prepare(`
    SELECT id, title, description, duration, view_count AS viewCount,
           published_at AS publishedAt, published_known AS publishedKnown
    FROM video WHERE channel_id = ?
    ORDER BY published_at DESC, id DESC
    LIMIT ?`);
  const channelVideosAfter = db.prepare(`
    SELECT id, title, description, duration, view_count AS viewCount,
           published_at AS publishedAt, published_known AS publishedKnown
    FROM video WHERE channel_id = ? AND (published_at, id) < (?, ?)
    ORDER BY published_at DESC, id DESC
    LIMIT ?`);
  const channelPlaylists = db.prepare(`
    SELECT id, title, ordinal, item_count AS itemCount
    FROM playlist WHERE channel_id = ? AND ordinal > ?
    ORDER BY ordinal
    LIMIT ?`);

  return {
    playlist: (id) => playlist.get(id) as PlaylistRow | undefined,
    playlistItems: (id, afterPosition, limit) =>
      slice(playlistItems.all(id, afterPosition, limit + 1), limit),
    channelExists: (id) => channelExists.get(id) !== undefined,
    videoExists: (id) => videoExists.get(id) !== undefined,
    channelVideos: (id, after, limit) =>
      slice(
        after
          ? channelVideosAfter.all(id, after[0], after[1], limit + 1)
          : channelVideosFirst.all(id, limit + 1),
        limit,
      ),
    channelPlaylists: (id, afterOrdinal, limit) =>
      slice(channelPlaylists.all(id, afterOrdinal, limit + 1), limit),
    close: () => db.close(),
  };
}
