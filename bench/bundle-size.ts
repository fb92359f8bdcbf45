import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { BenchRow } from './table.ts';

// Bench 8: what a first visit downloads before the app can run: the scripts and styles that
// dist/index.html names (entry, modulepreloads, stylesheets), the app the entry loads once the
// page is painted (src/app/main.tsx and its static imports), and the page's message catalog,
// one chunk per language of which a page loads only its own (counted here: the largest),
// gzip and brotli.

export const INITIAL_JS_BUDGET_GZIP = 120 * 1024;

export interface BundleSize {
  files: string[];
  /** Every language's catalog chunk, and the largest, counted in `js`. */
  catalogs: { count: number; largest: string; largestGzip: number };
  js: { raw: number; gzip: number; brotli: number };
  css: { raw: number; gzip: number; brotli: number };
}

export function measureInitialBundle(distDir = 'dist'): BundleSize {
  const html = readFileSync(join(distDir, 'index.html'), 'utf8');
  const manifest = JSON.parse(
    readFileSync(join(distDir, '.vite', 'manifest.json'), 'utf8'),
  ) as Manifest;
  const catalogs = catalogFiles(distDir, manifest);
  const largest = catalogs.sort((a, b) => b.gzip - a.gzip)[0];
  const files = [
    ...new Set([
      ...[...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!),
      ...appFiles(manifest),
      ...(largest ? [largest.file] : []),
    ]),
  ];
  const size = { js: { raw: 0, gzip: 0, brotli: 0 }, css: { raw: 0, gzip: 0, brotli: 0 } };
  for (const file of files) {
    const bytes = readFileSync(join(distDir, file));
    const bucket = file.endsWith('.js') ? size.js : size.css;
    bucket.raw += bytes.length;
    bucket.gzip += gzipSync(bytes, { level: 9 }).length;
    bucket.brotli += brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
    }).length;
  }
  return {
    files,
    catalogs: {
      count: catalogs.length,
      largest: largest?.file ?? '',
      largestGzip: largest?.gzip ?? 0,
    },
    ...size,
  };
}

type Manifest = Record<string, { file: string; imports?: string[] }>;

/** The languages' catalog chunks (shared/i18n/catalog-plugin.ts), the pseudo-locale's aside. */
function catalogFiles(distDir: string, manifest: Manifest) {
  return Object.entries(manifest)
    .filter(([key]) => key.startsWith('virtual:catalog/') && key !== 'virtual:catalog/en-XA')
    .map(([, chunk]) => ({
      file: `/${chunk.file}`,
      gzip: gzipSync(readFileSync(join(distDir, chunk.file)), { level: 9 }).length,
    }));
}

/** The app module the entry imports after the first paint, with everything it imports statically. */
function appFiles(manifest: Manifest): string[] {
  const files: string[] = [];
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || files.includes(`/${chunk.file}`)) return;
    files.push(`/${chunk.file}`);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(APP_MODULE);
  return files;
}

const APP_MODULE = 'src/app/main.tsx';

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function bundleRows(distDir = 'dist'): BenchRow[] {
  const { js, css, files, catalogs } = measureInitialBundle(distDir);
  return [
    {
      bench: '8',
      measure: `initial JS (${files.filter((f) => f.endsWith('.js')).length} files, one of ${catalogs.count} language catalogs), gzip / brotli`,
      figure: `${kb(js.gzip)} / ${kb(js.brotli)} (raw ${kb(js.raw)})`,
      reference: 'budget 120 KB gzip',
      ratio: `${(js.gzip / INITIAL_JS_BUDGET_GZIP).toFixed(2)}× budget`,
      target: '≤ 120 KB gzip',
      met: js.gzip <= INITIAL_JS_BUDGET_GZIP,
    },
    {
      bench: '8',
      measure: `the largest language catalog (of ${catalogs.count}), gzip`,
      figure: kb(catalogs.largestGzip),
      reference: '–',
      ratio: '–',
      target: '–',
      met: null,
    },
    {
      bench: '8',
      measure: 'initial CSS, gzip / brotli',
      figure: `${kb(css.gzip)} / ${kb(css.brotli)} (raw ${kb(css.raw)})`,
      reference: '–',
      ratio: '–',
      target: '–',
      met: null,
    },
  ];
}
