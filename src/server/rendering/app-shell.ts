import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setImmediate } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import type { Logger } from 'pino';
import type { RenderApp } from '../../shared/app-render.ts';
import type { AppShell } from './app-html.ts';
import { inlineStylesheets } from './inline-styles.ts';
import { translationsFor } from './translations.ts';
import { DEFAULT_LOCALE } from '../../shared/locales.ts';
import type { StaticSite } from './static-files.ts';

// The built app as the server renders it: index.html from the client build, each view's chunks
// from its manifest, and the app's server entry from the server build, which `npm run build`
// writes to `.ssr/` inside the static root (a dot folder, so never served as a file). Its
// stylesheet is written into the page (inline-styles.ts).

export const SERVER_BUILD_DIR = '.ssr';
const SERVER_ENTRY_FILE = 'entry-server.js';

/** The built app, and a way to load its renderer before the first visitor needs it. */
export interface BuiltShell extends AppShell {
  /**
   * One render before the first visitor's: a fresh process loads the app's server entry and
   * compiles React's server code on its first render, which would otherwise delay that visitor's
   * first paint. Run once the server listens, in two tasks (the load, then the render) so that
   * probes meanwhile are answered between them.
   */
  warmUp(): Promise<void>;
}

export function loadBuiltShell(site: StaticSite, logger: Logger): BuiltShell {
  const entry = join(site.root, SERVER_BUILD_DIR, SERVER_ENTRY_FILE);
  // Loaded on the first render or the warm-up, whichever comes first, not before the server
  // listens: the process's start does not wait for React's server code.
  let loaded: Promise<RenderApp> | undefined;
  const load = () =>
    (loaded ??= import(pathToFileURL(resolve(entry)).href).then(
      (module: { render: RenderApp }) => module.render,
      (error: unknown) => {
        // Pages still work, rendered by the browser alone; the log says why, once.
        logger.error({ err: error, entry }, 'the server build of the app cannot be loaded');
        throw error;
      },
    ));
  const present = existsSync(entry);
  if (!present)
    logger.warn(
      { entry },
      'no server build of the app: pages are rendered by the browser alone (run `npm run build`)',
    );
  /** Whether a reader's page has been rendered: it warmed the renderer as well as ours would. */
  let rendered = false;
  const render: RenderApp | null = present
    ? (request) =>
        load().then((loadedRender) => {
          rendered = true;
          return loadedRender(request);
        })
    : null;
  const { template, hashes } = inlineStylesheets(site.index.body.toString('utf8'), (path) =>
    site.files.get(path)?.body.toString('utf8'),
  );
  return {
    template: () => Promise.resolve(template),
    preloads: (pathname) => site.preloads.linksFor(pathname),
    render,
    styleHashes: hashes,
    async warmUp() {
      if (render === null) return;
      try {
        await load();
        await setImmediate();
        if (rendered) return;
        // A list view, loading, goes through the most of it and needs no upstream.
        const { locale, messages } = translationsFor(DEFAULT_LOCALE);
        await render({
          url: '/playlist/PLwarmUpTheRenderer000000000000000',
          locale,
          messages,
          screen: 'wide',
        });
      } catch (error) {
        logger.warn({ err: error }, 'the renderer could not warm up');
      }
    },
  };
}
