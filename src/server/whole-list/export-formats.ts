import {
  EXPORT_COLUMNS,
  ITEM_URL_FIELD,
  itemUrl,
  type ExportFormat,
  type ListItem,
  type ListKind,
} from '../../shared/whole-list.ts';

// The three export formats, written a page of items at a time so that an export of any length
// streams in constant memory: CSV (RFC 4180: CRLF line ends, a header row, fields with a comma,
// quote or line break quoted and their quotes doubled), one JSON array, or one URL a line (a
// batch file for a downloader).

export interface ExportWriter {
  head: string;
  /** The text for a page of items; `first` is true for the first items of the export. */
  items(items: readonly ListItem[], first: boolean): string;
  tail: string;
}

/** A CSV field (RFC 4180 §2.5–2.7). */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function exportWriter(format: ExportFormat, list: ListKind, listId: string): ExportWriter {
  const url = (item: ListItem) => itemUrl(list, item, list === 'playlist' ? listId : undefined);
  switch (format) {
    case 'csv': {
      const columns = EXPORT_COLUMNS[list];
      const row = (fields: (string | number | null)[]) => `${fields.map(csvField).join(',')}\r\n`;
      return {
        head: row([...columns.map((c) => c.name), ITEM_URL_FIELD]),
        items: (items) =>
          items
            .map((item) => row([...columns.map((c) => c.text(item as never)), url(item)]))
            .join(''),
        tail: '',
      };
    }
    case 'json':
      return {
        head: '[',
        items: (items, first) =>
          (first ? '' : ',') +
          items.map((item) => JSON.stringify({ ...item, [ITEM_URL_FIELD]: url(item) })).join(','),
        tail: ']\n',
      };
    case 'txt':
      return {
        head: '',
        items: (items) => items.map((item) => `${url(item)}\n`).join(''),
        tail: '',
      };
  }
}

/**
 * `Content-Disposition` naming the file after the list (RFC 6266): a plain ASCII `filename` for
 * old clients, and the real title, percent-encoded, in `filename*`.
 */
export function attachmentHeader(name: string, format: ExportFormat): string {
  // Control characters, and what file systems refuse in a name, become spaces.
  const clean = name
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const base = (clean === '' ? 'list' : clean).slice(0, 120);
  const ascii = base
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const fallback = `${ascii === '' ? 'list' : ascii}.${format}`;
  const encoded = encodeURIComponent(`${base}.${format}`).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback.replaceAll('%', '')}"; filename*=UTF-8''${encoded}`;
}
