import { describe, expect, it } from 'vitest';
import { compress } from '../http/compression.ts';
import { encodeOnce, etagOf, rightSized } from '../http/representation.ts';
import {
  bufferBytes,
  ENTRY_BYTES,
  entryCost,
  KEPT_COPY_BYTES,
  stringBytes,
  stringMapCost,
} from './memory-cost.ts';

describe('memory cost of cached entries', () => {
  it('counts a string by its characters: one byte each for Latin-1, two otherwise', () => {
    expect(stringBytes('')).toBe(16);
    expect(stringBytes('a'.repeat(40))).toBe(16 + 40);
    expect(stringBytes('a'.repeat(41))).toBe(16 + 48);
    expect(stringBytes('é'.repeat(8))).toBe(16 + 8);
    expect(stringBytes('日'.repeat(8))).toBe(16 + 16);
  });

  it('counts a Buffer by the whole block it keeps alive, not by its length', () => {
    const small = Buffer.from('{"items":[]}');
    // A small Buffer.from is a view on the shared pool: keeping it keeps the slab.
    expect(small.buffer.byteLength).toBeGreaterThan(small.length);
    expect(bufferBytes(small)).toBeGreaterThanOrEqual(small.buffer.byteLength);
  });

  it('copies a view into a block of its own, and leaves a Buffer that owns its block alone', () => {
    const slab = Buffer.alloc(65_536, 'x');
    const view = slab.subarray(1000, 1300);
    const own = rightSized(view);
    expect(own).not.toBe(view);
    expect(own.equals(view)).toBe(true);
    expect(own.buffer.byteLength).toBe(300);
    expect(bufferBytes(own)).toBeLessThan(1000);
    expect(rightSized(own)).toBe(own);
  });

  it('keeps compressed copies in blocks of their own (zlib hands back views on 64 KB blocks)', async () => {
    const body = Buffer.from(JSON.stringify({ items: Array.from({ length: 200 }, (_, i) => i) }));
    const raw = await compress(body, 'gzip');
    expect(raw.buffer.byteLength).toBeGreaterThan(raw.length);
    const representation = { body, etag: etagOf(body), encoded: {} };
    for (const encoding of ['br', 'gzip'] as const) {
      const copy = await encodeOnce(representation, encoding);
      expect(copy.buffer.byteLength).toBe(copy.length);
    }
  });

  it('counts an entry as the cache’s record and key, and a page’s record, body, validator, copies and what is kept beside it', () => {
    const body = rightSized(Buffer.from('{"items":[1,2,3]}'));
    const page = { kind: 'page' as const, body, etag: etagOf(body), freshUntil: 0, staleUntil: 0 };
    const bare = entryCost('k', { ...page, encoded: {}, encodedBytes: 0 });
    expect(bare).toBeGreaterThan(body.length + stringBytes(page.etag) + ENTRY_BYTES + 400);
    // Not the many times over that the body alone used to be: a few hundred bytes of records.
    expect(bare).toBeLessThan(body.length + 1000);
    const withCopy = { ...page, encoded: { br: Promise.resolve(body) }, encodedBytes: 10 };
    expect(entryCost('k', withCopy)).toBe(bare + KEPT_COPY_BYTES + 10);
    expect(entryCost('k', { ...withCopy, besideBytes: 500 })).toBe(bare + KEPT_COPY_BYTES + 510);
    expect(entryCost('k'.repeat(100), { ...page, encoded: {}, encodedBytes: 0 })).toBe(
      bare + stringBytes('k'.repeat(100)) - stringBytes('k'),
    );
    const refusal = {
      kind: 'refusal' as const,
      status: 404 as const,
      code: 'playlist_not_found' as const,
      detail: 'No such playlist',
      upstreamStatus: 404,
      freshUntil: 0,
    };
    expect(entryCost('k', { ...refusal, detail: 'x'.repeat(1000) })).toBe(
      entryCost('k', refusal) + stringBytes('x'.repeat(1000)) - stringBytes(refusal.detail),
    );
  });

  it('counts a Map of strings as its record and each entry with its key and value', () => {
    const map = new Map([['a key', 'a value']]);
    expect(stringMapCost(new Map())).toBe(ENTRY_BYTES);
    expect(stringMapCost(map)).toBe(
      2 * ENTRY_BYTES + stringBytes('a key') + stringBytes('a value'),
    );
  });
});
