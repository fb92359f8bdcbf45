import { generateOpml, parseOpml } from 'feedsmith';
import { readFeedPath, feedPath } from '../../shared/feeds.ts';
import { channelPath, playlistPath } from '../../shared/app-routes.ts';
import { readUserInput } from '../lib/view-target.ts';
import type { MessageId } from '../../shared/i18n/message-id.ts';
import type { FollowedList } from './follow-store.ts';

// Follow lists in and out of files. Out: OPML (every feed reader reads it; each list's Atom
// feed and its view) and this explorer's JSON. In: those two, the platform's subscriptions
// export (`subscriptions.csv`: Channel Id, Channel Url, Channel Title) and NewPipe's
// `subscriptions.json`. A file is taken whole or not at all: the first line that names no
// playlist or channel refuses it, with that line's number, and the follow list stays as it
// was. Parsing runs in a worker (import-worker.ts), so a file of any size or shape never holds
// the page; it is text to read, never code to run.

export type ImportedList = Pick<FollowedList, 'kind' | 'id' | 'title'>;

export type ImportResult =
  | { ok: true; lists: ImportedList[] }
  | { ok: false; reason: { id: MessageId; values?: Record<string, string | number> } };

/** Larger than any real subscription list (NewPipe's of 5,000 channels is under 1 MB). */
export const MAX_IMPORT_BYTES = 5 * 1024 * 1024;

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

function fromCsv(text: string): ImportResult {
  const lines = text.split(/\r?\n/);
  const lists: ImportedList[] = [];
  for (const [n, line] of lines.entries()) {
    if (n === 0 || line.trim() === '') continue;
    const fields = csvFields(line);
    const [id = '', url = '', title = ''] = fields ?? [];
    const list = fields ? (listFromReference(id) ?? listFromReference(url)) : null;
    if (list === null)
      return refuse('following.import.error.line', { line: n + 1, problem: line.slice(0, 80) });
    lists.push({ ...list, title: title.trim() || list.id });
  }
  return lists.length === 0 ? refuse('following.import.error.empty') : { ok: true, lists };
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
  return lists.length === 0 ? refuse('following.import.error.empty') : { ok: true, lists };
}

function fromOpml(text: string): ImportResult {
  let document;
  try {
    document = parseOpml(text);
  } catch {
    return refuse('following.import.error.unreadable', { format: 'OPML' });
  }
  const lists: ImportedList[] = [];
  let problem: ImportResult | null = null;
  const visit = (outlines: ReadonlyArray<Record<string, unknown>> | undefined, depth: number) => {
    for (const outline of outlines ?? []) {
      if (problem || depth > 20) return;
      const reference = [outline.xmlUrl, outline.htmlUrl].find((v) => typeof v === 'string');
      if (typeof reference === 'string') {
        const list = listFromReference(reference);
        if (list === null) {
          problem = refuse('following.import.error.notList', { text: reference.slice(0, 80) });
          return;
        }
        const title = [outline.title, outline.text].find((v) => typeof v === 'string' && v);
        lists.push({ ...list, title: (title as string | undefined) ?? list.id });
      }
      visit(outline.outlines as ReadonlyArray<Record<string, unknown>> | undefined, depth + 1);
    }
  };
  visit(document.body?.outlines as ReadonlyArray<Record<string, unknown>> | undefined, 0);
  if (problem) return problem;
  return lists.length === 0 ? refuse('following.import.error.empty') : { ok: true, lists };
}

/** Reads an import file, whatever it is: the format by its content, not its name. */
export function readImport(text: string): ImportResult {
  if (text.length > MAX_IMPORT_BYTES)
    return refuse('following.import.error.tooBig', { megabytes: MAX_IMPORT_BYTES / 1024 / 1024 });
  const start = text.replace(/^\uFEFF/, '').trimStart();
  if (start.startsWith('<')) return fromOpml(start);
  if (start.startsWith('{') || start.startsWith('[')) return fromJson(start);
  if (/^channel id\s*,/i.test(start)) return fromCsv(start);
  return refuse('following.import.error.unknownFormat');
}

/** This explorer's JSON export. */
export function exportJson(lists: readonly FollowedList[]): string {
  const entries = lists.map(({ kind, id, title }) => ({ kind, id, title }));
  return `${JSON.stringify({ format: JSON_FORMAT, version: 1, lists: entries }, null, 2)}\n`;
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
