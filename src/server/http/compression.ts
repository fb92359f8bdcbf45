import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';
import { weights } from './accept.ts';

// Compression for the browser. Hono's compress middleware offers only gzip and deflate and
// compresses every response anew; pages and static files are the same bytes many times over,
// so the explorer compresses each once (node:zlib, on the thread pool) and keeps the result
// beside the original. Brotli is preferred: at the qualities below it compresses a page smaller
// than gzip does, in the same time.

export type Encoding = 'br' | 'gzip';

/** Below this, compression saves less than its headers cost. */
export const COMPRESS_MIN_BYTES = 1024;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Brotli's quality for each effort. */
const BROTLI_QUALITY = { dynamic: 4, kept: 5, static: constants.BROTLI_MAX_QUALITY } as const;

/**
 * `dynamic`: pages, compressed while a browser waits, so quickly.
 * `kept`: a server render, compressed once and kept as its only copy (rendering/stored-render.ts):
 *   a little more time buys a noticeably smaller copy that is kept for long.
 * `static`: built files, compressed once by the build, as small as possible.
 */
export function compress(
  body: Buffer,
  encoding: Encoding,
  effort: Effort = 'dynamic',
): Promise<Buffer> {
  return encoding === 'br'
    ? brotli(body, brotliOptions(body, effort))
    : gzipAsync(body, { level: gzipLevel(effort) });
}

/** The same, on this thread: for the build, which has nothing else to do meanwhile. */
export function compressSync(body: Buffer, encoding: Encoding, effort: Effort = 'static'): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(body, brotliOptions(body, effort))
    : gzipSync(body, { level: gzipLevel(effort) });
}

type Effort = keyof typeof BROTLI_QUALITY;

const brotliOptions = (body: Buffer, effort: Effort) => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY[effort],
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
  },
});
const gzipLevel = (effort: Effort) => (effort === 'static' ? 9 : 6);

/** Picks br, else gzip, from an Accept-Encoding header (RFC 9110 §12.5.3), honouring q=0. */
export function negotiateEncoding(header: string | undefined): Encoding | null {
  if (header === undefined || header === '') return null;
  const named = weights(header);
  const weight = (name: Encoding) => named.get(name) ?? named.get('*') ?? 0;
  const br = weight('br');
  const gz = weight('gzip');
  if (br > 0 && br >= gz) return 'br';
  if (gz > 0) return 'gzip';
  return null;
}

/** Text types worth compressing. */
export function isCompressible(contentType: string): boolean {
  return /^(text\/|application\/(json|problem\+json|javascript|manifest\+json|xml)|image\/svg\+xml)/.test(
    contentType,
  );
}
