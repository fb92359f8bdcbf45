import { describe, expect, it } from 'vitest';
import { downloadName } from './download-name.ts';

// The name of a file the app saves itself, as the server's Content-Disposition gives it.

describe('a download’s name', () => {
  it('is the UTF-8 name when given, else the plain one', () => {
    expect(
      downloadName(
        `attachment; filename="Tiny Workshop - videos.csv"; filename*=UTF-8''%E6%9D%B1%E4%BA%AC%20-%20videos.csv`,
      ),
    ).toBe('東京 - videos.csv');
    expect(downloadName('attachment; filename="a \\"b\\".txt"')).toBe('a "b".txt');
    expect(downloadName('attachment; filename=plain.json')).toBe('plain.json');
    expect(downloadName(`attachment; filename="x.csv"; filename*=UTF-8''%E0%A4`)).toBe('x.csv');
  });

  it('is none when the header names none', () => {
    expect(downloadName(null)).toBeNull();
    expect(downloadName('attachment')).toBeNull();
  });
});
