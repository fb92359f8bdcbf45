import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { cpSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin, type UserConfig } from 'vite';
import { catalogPlugin } from './src/shared/i18n/catalog-plugin.ts';
import { writeCompressedCopies } from './src/server/rendering/static-files.ts';
import { copyCardFonts } from './src/server/cards/card-fonts.ts';

// The app's build: hashed files under /assets/, no inline scripts or styles (the server's CSP is
// `script-src 'self'; style-src 'self'`). The entry holds the frame and the libraries every view
// needs (React, the router, the query cache); the schemas (zod), the virtualizer and the views come
// in chunks loaded on demand, with modulepreload for their dependencies. Libraries get chunks of
// their own so an app change does not bust their cache.

/**
 * The stylesheet first in <head>: it holds back the first paint, so it must not queue behind the
 * scripts and module preloads that Vite names before it (a browser opens only a few connections
 * per origin at once). Runs after Vite has written its own tags.
 */
const stylesheetsFirst: Plugin = {
  name: 'stylesheets-first',
  transformIndexHtml: {
    order: 'post',
    handler(html) {
      const sheets = html.match(/<link rel="stylesheet"[^>]*>/g) ?? [];
      const rest = sheets.reduce((text, sheet) => text.replace(sheet, ''), html);
      return rest.replace(/<meta charset="utf-8" \/>/, (charset) => charset + sheets.join(''));
    },
  },
};

/**
 * Each built file's brotli and gzip copies, at the highest settings, written beside it: the
 * server reads them with their files (static-files.ts) instead of compressing at start-up, on
 * the thread pool its first visitors' pages need.
 */
const compressedCopies: Plugin = {
  name: 'compressed-copies',
  apply: 'build',
  closeBundle: {
    order: 'post',
    handler() {
      const { outDir } = this.environment.config.build;
      if (this.environment.config.consumer === 'client') writeCompressedCopies(outDir);
    },
  },
};

const vendor = (name: string, packages: string[]) => ({
  name,
  test: new RegExp(`node_modules[\\\\/](${packages.join('|')})[\\\\/]`),
});

/**
 * The explorer server itself (`vite build --mode server`, after the app's two builds): its
 * TypeScript bundled into one JavaScript module under dist/.server (a dot folder, never served),
 * so that `npm start` runs no type stripping, holds no TypeScript source in its heap and loads a
 * few files of its own instead of two hundred: the module, and beside it the chunks it imports
 * on first use (feeds, cards, Redis), whose libraries then load only when needed. Its libraries
 * stay in node_modules, loaded by Node as from the source. The module is written one folder
 * down (server/index.js) with the translations
 * it renders with beside that folder (messages/), where shared/i18n/catalog-files.ts looks for
 * them relative to itself, as it does in the source, and the two weights of each font the cards
 * draw (fonts/, cards/card-fonts.ts). Full maps, for --enable-source-maps.
 */
const SERVER_OUT_DIR = 'dist/.server';
const serverBuild: UserConfig = {
  publicDir: false,
  plugins: [
    {
      name: 'server-files',
      apply: 'build',
      closeBundle() {
        cpSync('src/shared/messages', `${SERVER_OUT_DIR}/messages`, { recursive: true });
        copyCardFonts(`${SERVER_OUT_DIR}/fonts`);
      },
    },
  ],
  build: {
    ssr: 'src/server/index.ts',
    outDir: SERVER_OUT_DIR,
    emptyOutDir: true,
    sourcemap: true,
    target: 'node24',
    minify: false,
    rolldownOptions: {
      output: { entryFileNames: 'server/[name].js', chunkFileNames: 'server/[name]-[hash].js' },
    },
  },
};

export default defineConfig(({ isSsrBuild, mode }) =>
  mode === 'server'
    ? serverBuild
    : {
        plugins: [react(), tailwindcss(), stylesheetsFirst, catalogPlugin(), compressedCopies],
        // public/ is the client's; the server build only renders.
        publicDir: isSsrBuild ? false : 'public',
        // The browser's zod runs without compiling parsers, which the page's CSP refuses
        // (src/app/zod-browser.ts); the server's keeps them (in `npm run dev`, where one Vite serves
        // both, the server's renders go jitless too, a little slower).
        resolve: isSsrBuild
          ? {}
          : {
              alias: [
                {
                  find: /^zod$/,
                  replacement: fileURLToPath(new URL('src/app/zod-browser.ts', import.meta.url)),
                },
              ],
            },
        // The follow list's import reader (src/app/following/import-worker.ts): an ES module worker,
        // its map written as the app's are (positions and names, no sources).
        worker: {
          format: 'es',
          rolldownOptions: { output: { sourcemapExcludeSources: true } },
        },
        build: {
          outDir: 'dist',
          assetsDir: 'assets',
          // A data: URL would be an inline resource; keep every asset a file.
          assetsInlineLimit: 0,
          // The client's maps are written for us, not shipped: 'hidden' leaves out the
          // sourceMappingURL comment, the maps leave out the source text (only positions and names,
          // enough to decode a stack trace someone reports against this build), and the server does
          // not serve them (static-files.ts). The server build keeps full maps: Node reads them to
          // report render errors (--enable-source-maps) and nothing serves dist/.ssr.
          sourcemap: isSsrBuild ? true : 'hidden',
          // Read by the server to name each view's chunks in the HTML (server/rendering/view-preloads.ts).
          manifest: !isSsrBuild,
          target: 'es2022',
          // The server build (src/app/entry-server.tsx, see package.json `build`) needs no vendor
          // chunks: Node loads the libraries from node_modules itself.
          rolldownOptions: isSsrBuild
            ? {}
            : {
                output: {
                  sourcemapExcludeSources: true,
                  codeSplitting: {
                    groups: [
                      vendor('react', ['react', 'react-dom', 'scheduler']),
                      vendor('router', ['react-router', 'cookie', 'set-cookie-parser']),
                      vendor('query', ['@tanstack/query-core', '@tanstack/react-query']),
                      vendor('virtual', ['@tanstack/virtual-core', '@tanstack/react-virtual']),
                      vendor('zod', ['zod']),
                    ],
                  },
                },
              },
        },
      },
);
