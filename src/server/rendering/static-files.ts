import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import {
  compress,
  compressSync,
  COMPRESS_MIN_BYTES,
  isCompressible,
  type Encoding,
} from '../http/compression.ts';
import { etagOf } from '../http/representation.ts';
import { contentSecurityPolicy } from '../http/security-headers.ts';
import { styleHashes } from './inline-styles.ts';
import { APP_HEAD_PLACEHOLDER } from '../../shared/app-render.ts';
import { readViewPreloads, type ViewPreloads } from './view-preloads.ts';

// The built app (`dist/`, made by `vite build`), as the explorer serves it. The build is
// small, so it is read into memory once at start-up: no file system access per request, and
// no way for a request path to name a file outside the build (only paths found in the walk
// exist). Compressed copies, at the highest settings, are made by the build and read with their
// files; any missing are made in the background after start-up, and until then those files go
// out uncompressed. The HTML of the app's routes is
// rendered from `index` by app-html.ts.

export interface StaticFile {
  body: Buffer;
  contentType: string;
  cacheControl: string;
  etag: string;
  encoded: Partial<Record<Encoding, Buffer>>;
  /** For an HTML file with inline styles: the policy that allows them by their hashes. */
  contentSecurityPolicy?: string;
}

export interface StaticSite {
  root: string;
  /** By URL path, e.g. `/assets/index-3f2a.js`. */
  files: Map<string, StaticFile>;
  /** dist/index.html: the template of every app route's HTML (app-html.ts). */
  index: StaticFile;
  /** Each view's chunks, from the build's manifest (view-preloads.ts). */
  preloads: ViewPreloads;
  /** Settles when every compressible file has its compressed copies. */
  ready: Promise<void>;
}

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.wasm': 'application/wasm',
};

/** Vite's hashed output: the name changes with the content, so it can be cached for good. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Everything else, index.html first: always revalidated, so a deploy shows at once. */
export const REVALIDATE = 'no-cache';

/** When there is no build yet (`npm run dev` serves the app itself; tests may not build). */
const NO_BUILD_HTML = `<!doctype html><html lang="en"><head><meta charset="utf-8">${APP_HEAD_PLACEHOLDER}</head>
<body><p>The app has not been built. Run <code>npm run build</code> (or <code>npm start</code>), or <code>npm run dev</code>.</p></body></html>`;

function makeFile(body: Buffer, urlPath: string): StaticFile {
  const file: StaticFile = {
    body,
    contentType: CONTENT_TYPES[extname(urlPath).toLowerCase()] ?? 'application/octet-stream',
    cacheControl: urlPath.startsWith('/assets/') ? IMMUTABLE : REVALIDATE,
    etag: etagOf(body),
    encoded: {},
  };
  // A page of the build with its styles written in (a saved app page, say) shows as it was
  // made, not unstyled: the default policy allows no inline style.
  if (extname(urlPath).toLowerCase() === '.html') {
    const hashes = styleHashes(body.toString('utf8'));
    if (hashes.length > 0) file.contentSecurityPolicy = contentSecurityPolicy(hashes);
  }
  return file;
}

/** The suffix of a file's compressed copy as the build writes it beside the file. */
const COPY_SUFFIX: Record<Encoding, string> = { br: '.br', gzip: '.gz' };
const ENCODINGS = ['br', 'gzip'] as const;

const worthCompressing = (file: StaticFile) =>
  file.body.length >= COMPRESS_MIN_BYTES && isCompressible(file.contentType);

/**
 * The build's files the server serves, by URL path: no dotfiles (the server build's `.ssr`), no
 * source maps (ours, not the public's: vite.config.ts), and no compressed copies, which are
 * their file's, read with it, never files of their own.
 */
function* servedFiles(root: string): Generator<{ full: string; urlPath: string }> {
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    const rel = relative(root, full).split(sep);
    if (rel.some((part) => part.startsWith('.'))) continue;
    if (entry.name.endsWith('.map')) continue;
    if (Object.values(COPY_SUFFIX).some((suffix) => entry.name.endsWith(suffix))) continue;
    yield { full, urlPath: `/${rel.join('/')}` };
  }
}

/**
 * Writes each compressible file's compressed copies beside it (`app.js.br`, `app.js.gz`), at
 * the highest settings, where smaller: run by the build (vite.config.ts), so that a server
 * starts with every copy made. Returns how many copies it wrote.
 */
export function writeCompressedCopies(root: string): number {
  let written = 0;
  for (const { full, urlPath } of servedFiles(root)) {
    const file = makeFile(readFileSync(full), urlPath);
    if (!worthCompressing(file)) continue;
    for (const encoding of ENCODINGS) {
      const copy = compressSync(file.body, encoding);
      if (copy.length < file.body.length) {
        writeFileSync(full + COPY_SUFFIX[encoding], copy);
        written++;
      }
    }
  }
  return written;
}

/**
 * The copies the build did not write (a build from before it wrote them, files added by hand),
 * made after start-up one at a time: the thread pool that compresses them also compresses every
 * page and render, and a first visitor's view must not queue behind a second of these.
 */
async function precompress(files: Iterable<StaticFile>): Promise<void> {
  for (const file of files) {
    if (!worthCompressing(file)) continue;
    for (const encoding of ENCODINGS) {
      if (file.encoded[encoding] !== undefined) continue;
      const compressed = await compress(file.body, encoding, 'static');
      // Worth sending only when it is smaller.
      if (compressed.length < file.body.length) file.encoded[encoding] = compressed;
    }
  }
}

/** Reads the build under `root`; with no build, serves a page that says how to make one. */
export function loadStaticSite(
  root: string,
  options: { onMissingBuild?: () => void } = {},
): StaticSite {
  const files = new Map<string, StaticFile>();
  if (existsSync(root) && statSync(root).isDirectory()) {
    for (const { full, urlPath } of servedFiles(root)) {
      const file = makeFile(readFileSync(full), urlPath);
      for (const encoding of ENCODINGS) {
        const copy = full + COPY_SUFFIX[encoding];
        if (existsSync(copy)) file.encoded[encoding] = readFileSync(copy);
      }
      files.set(urlPath, file);
    }
  }
  let index = files.get('/index.html');
  if (index === undefined) {
    options.onMissingBuild?.();
    index = makeFile(Buffer.from(NO_BUILD_HTML), '/index.html');
  }
  const ready = precompress(files.values());
  return { root, files, index, preloads: readViewPreloads(root), ready };
}
