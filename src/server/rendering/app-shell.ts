import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
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

export async function loadBuiltShell(site: StaticSite, logger: Logger): Promise<AppShell> {
  const entry = join(site.root, SERVER_BUILD_DIR, SERVER_ENTRY_FILE);
  let render: RenderApp | null = null;
  if (existsSync(entry)) {
    try {
      ({ render } = (await import(pathToFileURL(resolve(entry)).href)) as { render: RenderApp });
      // One render before the first visitor's: a fresh process compiles React's server code on
      // its first render (tens of milliseconds), which would otherwise delay that visitor's
      // first paint. A list view, loading, goes through the most of it and needs no upstream.
      const { locale, messages } = translationsFor(DEFAULT_LOCALE);
      await render({
        url: '/playlist/PLwarmUpTheRenderer000000000000000',
        locale,
        messages,
        screen: 'wide',
      }).catch((error: unknown) => logger.warn({ err: error }, 'the renderer could not warm up'));
    } catch (error) {
      // Pages still work, rendered by the browser alone; the log says why.
      logger.error({ err: error, entry }, 'the server build of the app cannot be loaded');
    }
  } else {
    logger.warn(
      { entry },
      'no server build of the app: pages are rendered by the browser alone (run `npm run build`)',
    );
  }
  const { template, hashes } = inlineStylesheets(site.index.body.toString('utf8'), (path) =>
    site.files.get(path)?.body.toString('utf8'),
  );
  return {
    template: () => Promise.resolve(template),
    preloads: (pathname) => site.preloads.linksFor(pathname),
    render,
    styleHashes: hashes,
  };
}
