import { promisify } from 'node:util';
import { brotliDecompress } from 'node:zlib';
import { compress, negotiateEncoding } from '../http/compression.ts';
import { etagOf, notModified, variantTag } from '../http/representation.ts';
import type { Answer, HeaderRecord } from '../http/responses.ts';
import { KEPT_COPY_BYTES } from '../pages/memory-cost.ts';
import { rightSized } from '../http/representation.ts';
import { growBeside } from '../pages/response-cache.ts';

// A server render as it is kept: its brotli copy alone. A rendered list view's HTML is large
// (every row's markup, and the same items again as the query cache the client hydrates from) and
// compresses very well, so keeping the HTML and its copies, as a page is kept, would let the
// cache hold far fewer renders. Nearly every browser asks for brotli, sent as kept; a gzip copy
// is made once on demand and kept beside it (charged to the same entry); a client that asks for
// neither gets the HTML back from brotli on the thread pool, unkept.

const unbrotli = promisify(brotliDecompress);

export interface StoredRender {
  /** Strong validator of the HTML itself (quoted). */
  etag: string;
  /** Bytes of the HTML itself. */
  size: number;
  /** The HTML, brotli-compressed: the copy kept. */
  br: Buffer;
  /** A gzip copy, made on first demand and kept. */
  gzip?: Promise<Buffer>;
}

/** The HTML, compressed once, in a block of its own (zlib hands back a view on a larger one). */
export async function storeRender(html: Buffer): Promise<StoredRender> {
  const br = rightSized(await compress(html, 'br', 'kept'));
  return { etag: etagOf(html), size: html.length, br };
}

/** The HTML itself again. */
export const renderedHtml = (render: StoredRender): Promise<Buffer> => unbrotli(render.br);

function gzipOf(render: StoredRender): Promise<Buffer> {
  if (render.gzip !== undefined) return render.gzip;
  const pending = renderedHtml(render)
    .then((html) => compress(html, 'gzip'))
    .then(rightSized);
  render.gzip = pending;
  void pending.then(
    // Kept beside a cached page: the page's entry carries the copy (response-cache.ts).
    (copy) => growBeside(render, KEPT_COPY_BYTES + copy.length),
    () => delete render.gzip,
  );
  return pending;
}

/**
 * What to send for a render: 304 when the client's copy is current (only a 200 carries a
 * validator, one per coding: RFC 9110 §8.8.3), else the HTML in the best coding the client
 * accepts. The HTML is never small enough to go uncompressed by choice.
 */
export async function renderAnswer(
  render: StoredRender,
  status: number,
  headers: HeaderRecord,
  request: { acceptEncoding: string | undefined; ifNoneMatch: string | undefined },
): Promise<Answer> {
  const encoding = negotiateEncoding(request.acceptEncoding);
  const vary = headers.Vary ? `Accept-Encoding, ${headers.Vary}` : 'Accept-Encoding';
  const sent: HeaderRecord = { ...headers, Vary: vary };
  if (status === 200) {
    sent.ETag = variantTag(render.etag, encoding);
    if (notModified(request.ifNoneMatch, render.etag))
      return { status: 304, headers: sent, body: null };
  }
  if (encoding === 'br')
    return { status, headers: { ...sent, 'Content-Encoding': 'br' }, body: render.br };
  if (encoding === 'gzip')
    return { status, headers: { ...sent, 'Content-Encoding': 'gzip' }, body: await gzipOf(render) };
  return { status, headers: sent, body: await renderedHtml(render) };
}
