import { parse as parseCsv } from 'csv-parse/sync';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromSpreadsheetSafe } from '../../shared/whole-list.ts';
import { attachmentHeader, csvField, exportWriter, safeFileBase } from './export-formats.ts';

// What a spreadsheet would run, and what a file name could hide, in the exports' text.

/** OWASP's formula triggers for CSV injection, and the full-width forms. */
const FORMULA = /^[=+\-@\t\r\n\uff1d\uff0b\uff0d\uff20]/;

/** Text with what makes trouble in cells and names: formula starts, quotes, separators, controls. */
const nasty = fc.string({
  unit: fc.oneof(
    fc.constantFrom('=', '+', '-', '@', '\t', '\r', '\n', "'", '"', ',', ';', '＝'),
    fc.constantFrom('\u202e', '\u202d', '\u2066', '\u2069', '\u200e', '\u061c', '\u0000', '\u0085'),
    fc.constantFrom(
      '\u200d',
      '\u2028',
      '\ufeff',
      '.',
      ' ',
      '/',
      '\\',
      ':',
      '*',
      '?',
      '<',
      '>',
      '|',
    ),
    fc.string({ unit: 'grapheme', maxLength: 3 }),
  ),
  maxLength: 40,
});

describe('CSV cells', () => {
  it('never start a formula, and read back to the text they were', () => {
    fc.assert(
      fc.property(nasty, nasty, (a, b) => {
        const line = `${csvField(a)},${csvField(b)},${csvField(7)}\r\n`;
        const [cells] = parseCsv(line, { record_delimiter: '\r\n' }) as string[][];
        expect(cells).toHaveLength(3);
        for (const cell of cells!) expect(cell).not.toMatch(FORMULA);
        expect(cells!.slice(0, 2).map(fromSpreadsheetSafe)).toEqual([a, b]);
      }),
      { numRuns: 2000 },
    );
  });

  it('a title that is a formula is shown as text', () => {
    expect(csvField('=HYPERLINK("https://evil.example","click")')).toBe(
      `"'=HYPERLINK(""https://evil.example"",""click"")"`,
    );
    expect(csvField('-dQw4w9WgXc')).toBe(`"'-dQw4w9WgXc"`);
    expect(csvField("'quoted")).toBe(`"''quoted"`);
    expect(csvField('a;=1+1')).toBe('"a;=1+1"');
  });

  it('with `bom`, the file starts with a byte order mark; without it, with the header', () => {
    expect(exportWriter('csv', 'playlist', 'PLx', { bom: true }).head).toMatch(/^\uFEFFindex,id,/);
    expect(exportWriter('csv', 'playlist', 'PLx').head).toMatch(/^index,id,/);
  });
});

describe('JSON', () => {
  it('a page with no items adds nothing, not even a separator, wherever it falls', () => {
    const writer = exportWriter('json', 'channel-videos', 'UCx');
    const video = (id: string) => ({
      id,
      title: id,
      duration: 1,
      viewCount: 1,
      publishedText: null,
      descriptionSnippet: '',
      thumbnails: [],
    });
    let written = false;
    let text = writer.head;
    for (const page of [[], [video('a')], [], [video('b'), video('c')], []]) {
      text += writer.items(page, !written);
      written ||= page.length > 0;
    }
    text += writer.tail;
    expect((JSON.parse(text) as Array<{ id: string }>).map((item) => item.id)).toEqual([
      'a',
      'b',
      'c',
    ]);
  });
});

describe('file names', () => {
  const format = 'csv';
  it('hold no control, bidi or invisible character, nothing a file system refuses', () => {
    fc.assert(
      fc.property(nasty, (title) => {
        const base = safeFileBase(title);
        expect(base).not.toMatch(/[\p{Cc}\p{Zl}\p{Zp}/\\:*?"<>|]/u);
        expect(
          [...base].filter((c) => /\p{Cf}/u.test(c) && c !== '\u200d' && c !== '\u200c'),
        ).toEqual([]);
        expect(base).not.toMatch(/^[.\s]|[.\s]$/);
        expect(base.length).toBeGreaterThan(0);
        expect([...base].length).toBeLessThanOrEqual(120);

        const header = attachmentHeader(title, format);
        const [, fallback, encoded] =
          /^attachment; filename="([^"]*)"; filename\*=UTF-8''(.*)$/.exec(header)!;
        expect(fallback).toMatch(/^[\x20-\x7e]+\.csv$/);
        expect(fallback).not.toMatch(/[%\\"]/);
        // RFC 8187's attr-char: nothing there needs quoting.
        expect(encoded).toMatch(/^[A-Za-z0-9!#$&+\-.^_`|~%]+$/);
        expect(decodeURIComponent(encoded!)).toBe(`${base}.${format}`);
      }),
      { numRuns: 2000 },
    );
  });

  it('a right-to-left override cannot turn the extension around; device names are kept off', () => {
    expect(safeFileBase('invoice\u202Evsc.exe')).toBe('invoice vsc.exe');
    expect(safeFileBase('CON')).toBe('_CON');
    expect(safeFileBase('...hidden.')).toBe('hidden');
    expect(safeFileBase('\u0007\u202e')).toBe('list');
    expect(safeFileBase('👩\u200d💻 talks')).toBe('👩\u200d💻 talks');
  });
});
