import { hash } from 'node:crypto';
import { compress, COMPRESS_MIN_BYTES, negotiateEncoding, type Encoding } from './compression.ts';
import { respond, type Answer, type HeaderRecord } from './responses.ts';

// Conditional requests and content coding for one set of bytes sent many times: a page, or
// the app's HTML. The bytes carry a strong validator; each content coding gets a tag of its
// own (they are different bytes), If-None-Match accepts any of them, and each compressed copy
// is made once, on first demand, and kept beside the original.

/** Bytes sent many times, with their validator and compressed copies. */
export interface Representation {
  body: Buffer;
  /** Strong validator of the identity bytes (quoted). */
  etag: string;
  /** Compressed copies, each made once on first demand. */
  encoded: Partial<Record<Encoding, Promise<Buffer>>>;
}

/** What `sendRepresentation` needs of the request. */
export interface RequestHeaders {
  header(name: string): string | undefined;
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

export const etagOf = (body: Buffer) => `"${hash('sha1', body, 'base64url')}"`;

/** A strong validator per content coding (RFC 9110 §8.8.3: they are different bytes). */
export const variantTag = (etag: string, encoding: Encoding | null) =>
  encoding === null ? etag : `${etag.slice(0, -1)}.${encoding === 'br' ? 'br' : 'gz'}"`;

/** If-None-Match uses the weak comparison (RFC 9110 §13.1.2): any coding of the same bytes. */
export function notModified(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  for (const raw of header.split(',')) {
    const tag = raw.trim().replace(/^W\//, '');
    if (
      tag === '*' ||
      tag === etag ||
      tag === variantTag(etag, 'br') ||
      tag === variantTag(etag, 'gzip')
    )
      return true;
  }
  return false;
}

/**
 * `representation.body` in `encoding`, compressed once and kept; `onEncoded` hears of each
 * copy made (a cache counts its bytes). A failed compression is forgotten, so it is tried again.
 * The copy is kept in a block of its own: zlib hands back a view on a larger block (its output
 * buffer, or the shared Buffer pool) that a kept view would hold whole.
 */
export function encodeOnce(
  representation: Representation,
  encoding: Encoding,
  onEncoded?: (copy: Buffer) => void,
): Promise<Buffer> {
  const existing = representation.encoded[encoding];
  if (existing !== undefined) return existing;
  const pending = compress(representation.body, encoding).then(rightSized);
  representation.encoded[encoding] = pending;
  void pending.then(onEncoded, () => delete representation.encoded[encoding]);
  return pending;
}

/** How one request wants a representation: in which coding, and whether its copy is current. */
export interface Variant {
  /** null: the bytes as they are. */
  encoding: Encoding | null;
  notModified: boolean;
}

/**
 * The variant a request asks for: the best coding it accepts (small bodies go as they are),
 * and whether its If-None-Match names these bytes (only a 200 carries a validator).
 */
export function variantFor(
  request: { acceptEncoding: string | undefined; ifNoneMatch: string | undefined },
  representation: Representation,
  status: 200 | 404,
): Variant {
  return {
    encoding:
      representation.body.length >= COMPRESS_MIN_BYTES
        ? negotiateEncoding(request.acceptEncoding)
        : null,
    notModified: status === 200 && notModified(request.ifNoneMatch, representation.etag),
  };
}

/**
 * What to send for `variant` of `representation`: 304 when the client's copy is current, else
 * the bytes in the variant's coding. A 404 carries no validator.
 */
export async function representationAnswer(
  representation: Representation,
  status: 200 | 404,
  headers: HeaderRecord,
  variant: Variant,
  encode: (encoding: Encoding) => Promise<Buffer> = (encoding) =>
    encodeOnce(representation, encoding),
): Promise<Answer> {
  const { encoding } = variant;
  const sent: HeaderRecord = { ...headers, Vary: 'Accept-Encoding' };
  if (status === 200) {
    sent.ETag = variantTag(representation.etag, encoding);
    if (variant.notModified) return { status: 304, headers: sent, body: null };
  }
  if (encoding === null) return { status, headers: sent, body: representation.body };
  const body = await encode(encoding);
  return { status, headers: { ...sent, 'Content-Encoding': encoding }, body };
}

/**
 * Sends `representation` in the best coding the client accepts (small bodies go as they
 * are), or 304 when the client's copy is current. A 404 carries no validator.
 */
export async function sendRepresentation(
  request: RequestHeaders,
  representation: Representation,
  status: 200 | 404,
  headers: HeaderRecord,
  encode?: (encoding: Encoding) => Promise<Buffer>,
): Promise<Response> {
  const variant = variantFor(
    {
      acceptEncoding: request.header('accept-encoding'),
      ifNoneMatch: request.header('if-none-match'),
    },
    representation,
    status,
  );
  const answer = await representationAnswer(representation, status, headers, variant, encode);
  return respond(answer.status, answer.body, answer.headers);
}
