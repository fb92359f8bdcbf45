import {
  EXPORT_COLUMNS,
  ITEM_URL_FIELD,
  itemUrl,
  spreadsheetSafe,
  type ExportFormat,
  type ListItem,
  type ListKind,
} from '../../shared/whole-list.ts';

// The three export formats, written a page of items at a time in constant memory: CSV (RFC 4180),
// one JSON array, or one URL a line. A CSV is mostly opened in a spreadsheet, where a title such
// as `=HYPERLINK(...)` would be a formula: every text field is quoted and neutralised
// (shared/whole-list.ts, spreadsheetSafe). With `bom`, the file starts with a byte order mark,
// without which Excel reads UTF-8 as the local code page.

/** U+FEFF encoded as UTF-8 at the start of a file: says the file is UTF-8 to Excel. */
const BYTE_ORDER_MARK = '\uFEFF';

export interface ExportWriter {
  head: string;
  /**
   * The text for a page of items; `first` is true until some item has been written (a page may
   * hold none: it then adds nothing, not even a separator).
   */
  items(items: readonly ListItem[], first: boolean): string;
  tail: string;
}

/** A CSV field (RFC 4180 §2.5–2.7): a number as it is, text quoted and made spreadsheet-safe. */
export function csvField(value: string | number | null): string {
  if (value === null) return '';
  if (typeof value === 'number') return String(value);
  return `"${spreadsheetSafe(value).replaceAll('"', '""')}"`;
}

export function exportWriter(
  format: ExportFormat,
  list: ListKind,
  listId: string,
  { bom = false }: { bom?: boolean } = {},
): ExportWriter {
  const url = (item: ListItem) => itemUrl(list, item, list === 'playlist' ? listId : undefined);
  switch (format) {
    case 'csv': {
      const columns = EXPORT_COLUMNS[list];
      const row = (fields: (string | number | null)[]) => `${fields.map(csvField).join(',')}\r\n`;
      // The column names are plain words, written as they are.
      const names = [...columns.map((c) => c.name), ITEM_URL_FIELD].join(',');
      return {
        head: `${bom ? BYTE_ORDER_MARK : ''}${names}\r\n`,
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
          items.length === 0
            ? ''
            : (first ? '' : ',') +
              items
                .map((item) => JSON.stringify({ ...item, [ITEM_URL_FIELD]: url(item) }))
                .join(','),
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
 * What may not be in a downloaded file's name: controls (C0 and C1), invisible format characters
 * (bidi embeddings, overrides, isolates and marks among them, which can make `exe.csv` read as
 * `vsc.exe`), line and paragraph separators, and what file systems refuse. The two joiners stay:
 * emoji sequences and several scripts need them, and they reorder nothing.
 */
const UNSAFE_IN_NAME = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}/\\:*?"<>|]/gu;
const JOINERS = new Set(['\u200c', '\u200d']);

/** Names Windows keeps for devices, with any extension (`CON.csv` cannot be saved). */
const DEVICE_NAME = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])$/i;

/** A list's title as a file's base name: nothing that hides, reorders or is refused. */
export function safeFileBase(name: string): string {
  const spaced = name
    .normalize('NFC')
    .replace(UNSAFE_IN_NAME, (c) => (JOINERS.has(c) ? c : ' '))
    .replace(/\s+/g, ' ');
  const base = [...spaced]
    .slice(0, 120)
    .join('')
    // Leading dots hide a file; trailing dots and spaces are dropped by Windows.
    .replace(/^[.\s]+|[.\s]+$/g, '');
  if (base === '') return 'list';
  return DEVICE_NAME.test(base) ? `_${base}` : base;
}

/**
 * `Content-Disposition` naming the file after the list (RFC 6266): a plain ASCII `filename` for
 * old clients, and the real title, percent-encoded as RFC 8187 has it, in `filename*`.
 */
export function attachmentHeader(name: string, format: ExportFormat): string {
  const base = safeFileBase(name);
  const ascii = base
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/[%\\"]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  const fallback = `${ascii === '' ? 'list' : safeFileBase(ascii)}.${format}`;
  const encoded = encodeURIComponent(`${base}.${format}`).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
