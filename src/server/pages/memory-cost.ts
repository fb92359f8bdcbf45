// What the page cache's entries really occupy, so that CACHE_MAX_BYTES bounds the process's
// memory and not only the pages' bytes. Counting the body alone let a small page cost about
// eight times what was counted: around every few hundred bytes of JSON sit a Buffer and its
// ArrayBuffer, a validator string, the page record and the cache's own bookkeeping. Worse, a
// Buffer is often a view on a larger block it keeps alive whole: a body read from the socket
// holds the whole read (headers included), anything under 32 KB made by `Buffer.from` or
// `Buffer.concat` sits in a shared 64 KB pool slab, and a gzip result is a slice of the
// stream's 64 KB output buffer. So what is kept goes into an allocation of its own, sized to
// fit (`rightSized`), and is counted at that size plus the fixed costs below.
//
// The constants were measured on Node 26 (x64) by filling a cache with 100,000 entries and
// reading heapUsed + external after full collections; each is rounded up, and the Buffer's
// includes the native record behind every ArrayBuffer, which Node's figures leave out.

/** A Buffer object and its ArrayBuffer on the heap (~136), and the native record behind it. */
const BUFFER_BYTES = 232;
/** The cache's record of an entry and its slot in the cache's Map (~68 measured). */
export const ENTRY_BYTES = 96;
/** A stored page's record with its two timestamps and its table of compressed copies (~234). */
const PAGE_BYTES = 256;
/** The settled promise a compressed copy is kept in (~100). */
const PROMISE_BYTES = 112;
/** What keeping a compressed copy costs beyond its own bytes. */
export const KEPT_COPY_BYTES = PROMISE_BYTES + BUFFER_BYTES;

/** Bytes of a string: a header and its characters, one byte each unless any is beyond Latin-1. */
export function stringBytes(text: string): number {
  // eslint-disable-next-line no-control-regex
  const width = /[^\u0000-\u00ff]/.test(text) ? 2 : 1;
  return 16 + Math.ceil((text.length * width) / 8) * 8;
}

/** Bytes a Buffer keeps alive: its objects and the whole block it is a view on. */
export function bufferBytes(buffer: Buffer): number {
  return BUFFER_BYTES + buffer.buffer.byteLength;
}

/**
 * `buffer`, or a copy of it in a block of its own when it is a view on a larger one, so that
 * keeping it keeps alive only its own bytes. The copy costs one memcpy, once per stored page.
 */
export function rightSized(buffer: Buffer): Buffer {
  if (buffer.byteOffset === 0 && buffer.byteLength === buffer.buffer.byteLength) return buffer;
  // allocUnsafeSlow never takes from the shared pool; every byte is overwritten at once.
  const copy = Buffer.allocUnsafeSlow(buffer.length);
  buffer.copy(copy);
  return copy;
}

/** What `storedPageCost` reads of a stored page (page-source.ts `StoredPage`). */
export interface CostedPage {
  body: Buffer;
  etag: string;
  /** The compressed copies made or in the making. */
  encoded: object;
  /** Bytes of the compressed copies made so far. */
  encodedBytes: number;
}

/**
 * Bytes a stored page occupies: its record, body, validator and compressed copies. The key
 * and the cache's bookkeeping are the cache's to add (response-cache.ts).
 */
export function storedPageCost(page: CostedPage): number {
  const copies = Object.keys(page.encoded).length;
  return (
    PAGE_BYTES +
    bufferBytes(page.body) +
    stringBytes(page.etag) +
    copies * KEPT_COPY_BYTES +
    page.encodedBytes
  );
}

/**
 * Bytes a server render kept beside its page occupies (rendering/stored-render.ts): its record,
 * its one kept copy (brotli), validator, and its key in the page's table of renders (the
 * rendered path and the link preview). A gzip copy made later is charged when it is made.
 */
export function keptRenderCost(render: { br: Buffer; etag: string }, key: string): number {
  return (
    PAGE_BYTES + bufferBytes(render.br) + stringBytes(render.etag) + stringBytes(key) + ENTRY_BYTES
  );
}
