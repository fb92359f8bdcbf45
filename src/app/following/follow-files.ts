import { generateOpml, parseOpml } from 'feedsmith';
import { readFeedPath, feedPath } from '../../shared/feeds.ts';
import { channelPath, playlistPath } from '../../shared/app-routes.ts';
import { readUserInput } from '../../shared/view-target.ts';
import type { MessageId } from '../../shared/i18n/message-id.ts';
import type { FollowedList } from './follow-store.ts';

// Follow lists in and out of files. Out: OPML (each list's Atom feed and view) and this
// explorer's JSON. In: those two, other feed readers' OPML, Takeout's `subscriptions.csv` (known
// by its shape, a column of channel IDs, as its header is in the account's language) and
// NewPipe's `subscriptions.json`. A CSV or JSON entry that names no list refuses the whole file,
// which is not what it seems; an OPML file's other feeds are skipped and named. At most
// MAX_IMPORT_LISTS are added. Parsing runs in a worker (import-worker.ts), so no file holds the
// page, and a file is text to read, never code to run.

export type ImportedList = Pick<FollowedList, 'kind' | 'id' | 'title'>;

export interface ImportTaken {
  ok: true;
  lists: ImportedList[];
  /** Entries that are not lists of this platform (an OPML file's blogs): the first few named. */
  skipped: { count: number; names: string[] };
  /** Lists past MAX_IMPORT_LISTS, not taken. */
  overCap: number;
}

export type ImportResult =
  ImportTaken | { ok: false; reason: { id: MessageId; values?: Record<string, string | number> } };

/** Larger than any real subscription list file. */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;
/**
 * Lists one file adds: as many as the Following view is measured with, which this browser's
 * store holds with room to spare (follow-store.test.ts).
 */
export const MAX_IMPORT_LISTS = 5_000;
/** Skipped entries named in the import's message. */
const NAMED_SKIPPED = 5;

/** The lists of a file, capped, with what was skipped. */
function taken(lists: ImportedList[], skipped: string[] = []): ImportResult {
  if (lists.length === 0) return refuse('following.import.error.empty');
  return {
    ok: true,
    lists: lists.slice(0, MAX_IMPORT_LISTS),
    skipped: { count: skipped.length, names: skipped.slice(0, NAMED_SKIPPED) },
    overCap: Math.max(0, lists.length - MAX_IMPORT_LISTS),
  };
}

export const JSON_FORMAT = 'catalogue-explorer/following';

const refuse = (id: MessageId, values?: Record<string, string | number>): ImportResult => ({
  ok: false,
  reason: { id, values },
});

/** The list a reference names: an ID, a platform link, a feed URL, an explorer link. */
export function listFromReference(text: string): Omit<ImportedList, 'title'> | null {
  const url = URL.parse(text.trim());
  if (url !== null && /^https?:$/.test(url.protocol)) {
    const feed = readFeedPath(url.pathname);
    if (feed) return { kind: feed.list, id: feed.id };
    // The platform's own feeds: /feeds/videos.xml?channel_id=UC… or ?playlist_id=PL….
    if (url.pathname === '/feeds/videos.xml') {
      const channel = url.searchParams.get('channel_id');
      const playlist = url.searchParams.get('playlist_id');
      const named = channel ?? playlist;
      if (named) return listFromReference(named);
    }
  }
  // Any host's explorer paths count as its own: a list exported from another explorer.
  const read = readUserInput(text, url?.host);
  if (!read.ok) return null;
  return { kind: read.target.kind, id: read.target.id };
}

/** RFC 4180 fields of one CSV record (quotes, doubled quotes); a record per line. */
function csvFields(line: string): string[] | null {
  const fields: string[] = [];
  let i = 0;
  for (;;) {
    if (line[i] === '"') {
      let value = '';
      i++;
      for (;;) {
        if (i >= line.length) return null;
        if (line[i] === '"') {
          if (line[i + 1] === '"') {
            value += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        value += line[i++];
      }
      fields.push(value);
      if (i < line.length && line[i] !== ',') return null;
    } else {
      const end = line.indexOf(',', i);
      fields.push(end === -1 ? line.slice(i) : line.slice(i, end));
      i = end === -1 ? line.length : end;
    }
    if (i >= line.length) return fields;
    i++; // the comma
  }
}

/**
 * A subscriptions CSV in any language: a header line (whatever its words), then a line per
 * channel, one of whose fields names it (Takeout: ID, URL, title). The title is the first field
 * that names no list.
 */
function fromCsv(text: string): ImportResult {
  const lines = text.split(/\r?\n/);
  const lists: ImportedList[] = [];
  for (const [n, line] of lines.entries()) {
    if (line.trim() === '') continue;
    const fields = csvFields(line);
    const references = (fields ?? []).map((field) => listFromReference(field));
    const at = references.findIndex((list) => list !== null);
    // The header: the first line, naming no list.
    if (n === 0 && at === -1 && fields !== null && fields.length > 1) continue;
    const list = at === -1 ? null : references[at]!;
    if (list === null)
      return refuse('following.import.error.line', { line: n + 1, problem: line.slice(0, 80) });
    const title = fields!.find((field, i) => references[i] === null && field.trim() !== '');
    lists.push({ ...list, title: title?.trim() || list.id });
  }
  return taken(lists);
}

interface JsonEntry {
  kind?: unknown;
  id?: unknown;
  title?: unknown;
  url?: unknown;
  name?: unknown;
  service_id?: unknown;
}

function fromJson(text: string): ImportResult {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return refuse('following.import.error.unreadable', { format: 'JSON' });
  }
  const record = (data ?? {}) as { format?: unknown; lists?: unknown; subscriptions?: unknown };
  // This explorer's own export, or NewPipe's subscriptions (its `service_id` 0 is YouTube).
  const own = record.format === JSON_FORMAT && Array.isArray(record.lists);
  const entries = own ? record.lists : record.subscriptions;
  if (!Array.isArray(entries)) return refuse('following.import.error.unknownFormat');
  const lists: ImportedList[] = [];
  for (const [n, raw] of (entries as JsonEntry[]).entries()) {
    if (!own && raw?.service_id !== undefined && raw.service_id !== 0) continue;
    const reference = own ? raw?.id : raw?.url;
    const list = typeof reference === 'string' ? listFromReference(reference) : null;
    const kind = own ? raw?.kind : list?.kind;
    if (list === null || (own && kind !== list.kind))
      return refuse('following.import.error.line', {
        line: n + 1,
        problem: JSON.stringify(raw).slice(0, 80),
      });
    const title = own ? raw?.title : raw?.name;
    lists.push({ ...list, title: typeof title === 'string' && title.trim() ? title : list.id });
  }
  return taken(lists);
}

function fromOpml(text: string): ImportResult {
  let document;
  try {
    document = parseOpml(text);
  } catch {
    return refuse('following.import.error.unreadable', { format: 'OPML' });
  }
  const lists: ImportedList[] = [];
  const skipped: string[] = [];
  const visit = (outlines: ReadonlyArray<Record<string, unknown>> | undefined, depth: number) => {
    if (depth > 20) return;
    for (const outline of outlines ?? []) {
      const reference = [outline.xmlUrl, outline.htmlUrl].find((v) => typeof v === 'string');
      const title = [outline.title, outline.text].find((v) => typeof v === 'string' && v) as
        string | undefined;
      if (typeof reference === 'string') {
        const list = listFromReference(reference);
        if (list === null) skipped.push(title ?? reference.slice(0, 80));
        else lists.push({ ...list, title: title ?? list.id });
      }
      visit(outline.outlines as ReadonlyArray<Record<string, unknown>> | undefined, depth + 1);
    }
  };
  visit(document.body?.outlines as ReadonlyArray<Record<string, unknown>> | undefined, 0);
  return taken(lists, skipped);
}

/** Reads an import file, whatever it is: the format by its content, not its name. */
export function readImport(text: string): ImportResult {
  if (text.length > MAX_IMPORT_BYTES)
    return refuse('following.import.error.tooBig', { megabytes: MAX_IMPORT_BYTES / 1024 / 1024 });
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (start.startsWith('<')) return fromOpml(start);
  if (start.startsWith('{') || start.startsWith('[')) return fromJson(start);
  if (/^[^\n]*,/.test(start)) return fromCsv(start);
  return refuse('following.import.error.unknownFormat');
}

/**
 * This explorer's JSON export; `progress` (progress/progress-file.ts) rides along as its own
 * versioned section, which readers of version 1 files ignore.
 */
export function exportJson(lists: readonly FollowedList[], progress?: unknown): string {
  const entries = lists.map(({ kind, id, title }) => ({ kind, id, title }));
  const file = { format: JSON_FORMAT, version: 1, lists: entries, progress };
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** OPML 2.0: each list as its Atom feed, with its view as the page. */
export function exportOpml(lists: readonly FollowedList[], origin: string): string {
  return generateOpml({
    head: { title: 'Catalogue Explorer: following', dateCreated: new Date() },
    body: {
      outlines: lists.map((list) => ({
        text: list.title,
        title: list.title,
        type: 'rss',
        xmlUrl: `${origin}${feedPath(list.kind, list.id, 'atom')}`,
        htmlUrl: `${origin}${list.kind === 'playlist' ? playlistPath(list.id) : channelPath(list.id)}`,
      })),
    },
  });
}
