import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { compress, negotiateEncoding } from './compression.ts';

describe('content coding: brotli preferred, gzip otherwise', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['identity', null],
    ['gzip, deflate, br', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['*', 'br'],
    ['*;q=0', null],
    ['gzip;q=0, deflate', null],
  ])('Accept-Encoding %j → %j', (header, expected) => {
    expect(negotiateEncoding(header)).toBe(expected);
  });

  it('round-trips', async () => {
    const body = Buffer.from(
      JSON.stringify({
        items: Array.from({ length: 100 }, (_, i) => ({ i, title: 'x'.repeat(40) })),
      }),
    );
    expect(brotliDecompressSync(await compress(body, 'br'))).toEqual(body);
    expect(gunzipSync(await compress(body, 'gzip', 'static'))).toEqual(body);
  });
});
