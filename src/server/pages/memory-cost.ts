import type { PageCacheEntry } from './page-entry.ts';

// What the page cache's entries really occupy, so that CACHE_MAX_BYTES bounds the process's
// memory and not only the pages' bytes: around a small page's JSON sit a Buffer and its
// ArrayBuffer, a validator, the page's record and the cache's own. A Buffer is also often a view
// on a larger block it keeps alive whole (the socket's read, the shared pool, zlib's output), so
// what is kept goes into a block of its own (`rightSized`) and is counted at that size. The
// constants were measured on Node 26 by filling caches and reading heapUsed + external after full
// collections, each rounded up; the Buffer's includes the native record Node's figures leave out.

/** A Buffer object and its ArrayBuffer on the heap, and the native record behind it. */
const BUFFER_BYTES = 232;
/** An entry's record in an lru-cache (its Map slot and its places in the cache's arrays). */
export const ENTRY_BYTES = 96;
/** The same in an lru-cache bounded by a count, whose arrays are allocated whole at start. */
export const COUNTED_ENTRY_BYTES = 64;
/** A stored page's or render's record, with its timestamps and its table of compressed copies. */
const RECORD_BYTES = 256;
/** The settled promise a compressed copy is kept in. */
const PROMISE_BYTES = 112;
/** What keeping a compressed copy costs beyond its own bytes. */
export const KEPT_COPY_BYTES = PROMISE_BYTES + BUFFER_BYTES;

/** Bytes of a string: a header and its characters, one byte each unless any is beyond Latin-1. */
export function stringBytes(text: string): number {
  // eslint-disable-next-line no-control-regex
  return textBytes(text.length, /[^\u0000-\u00ff]/.test(text));
}

/** Bytes of a string of `length` characters, `wide` when any is beyond Latin-1. */
export function textBytes(length: number, wide = false): number {
  return 16 + Math.ceil((length * (wide ? 2 : 1)) / 8) * 8;
}

/** Bytes a Buffer keeps alive: its objects and the whole block it is a view on. */
export function bufferBytes(buffer: Buffer): number {
  return BUFFER_BYTES + buffer.buffer.byteLength;
}

/**
 * What an entry of the page cache occupies, the one measure the cache charges it: the cache's
 * record and key, and a page's record, body, validator, compressed copies and what is kept
 * beside it (its renders), or a refusal's record and words.
 */
export function entryCost(key: string, entry: PageCacheEntry): number {
  const held =
    entry.kind === 'refusal'
      ? stringBytes(entry.detail)
      : bufferBytes(entry.body) +
        stringBytes(entry.etag) +
        Object.keys(entry.encoded).length * KEPT_COPY_BYTES +
        entry.encodedBytes +
        (entry.besideBytes ?? 0);
  return ENTRY_BYTES + stringBytes(key) + RECORD_BYTES + held;
}

/**
 * Bytes a server render kept beside its page occupies (rendering/stored-render.ts): its record,
 * its one kept copy (brotli), validator, and its key in the page's table of renders. A gzip copy
 * made later is charged when it is made.
 */
export function keptRenderCost(render: { br: Buffer; etag: string }, key: string): number {
  return (
    RECORD_BYTES +
    bufferBytes(render.br) +
    stringBytes(render.etag) +
    stringBytes(key) +
    ENTRY_BYTES
  );
}

/** Bytes a Map of strings occupies: its record, and each entry's with its key and value. */
export function stringMapCost(map: ReadonlyMap<string, string>): number {
  let bytes = ENTRY_BYTES;
  for (const [key, value] of map) bytes += ENTRY_BYTES + stringBytes(key) + stringBytes(value);
  return bytes;
}
