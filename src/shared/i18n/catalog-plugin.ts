import type { Plugin } from 'vite';
import { CATALOG_LOCALES, type CatalogLocale } from '../locales.ts';
import { catalogFiles, compileCatalog, MESSAGES_DIR } from './catalog-files.ts';

// The browser's catalogs, one chunk per locale, compiled at build time: a page loads only its
// own language's messages, already parsed (no ICU parser in the bundle), whatever the number of
// locales. `virtual:catalogs` maps each locale to the dynamic import of its chunk.

const LOADERS = 'virtual:catalogs';
const CATALOG = 'virtual:catalog/';

export function catalogPlugin(): Plugin {
  return {
    name: 'message-catalogs',
    resolveId(id) {
      if (id === LOADERS || id.startsWith(CATALOG)) return `\0${id}`;
      return null;
    },
    load(id) {
      if (id === `\0${LOADERS}`) {
        const entries = CATALOG_LOCALES.map(
          (locale) =>
            `${JSON.stringify(locale)}: () => import(${JSON.stringify(CATALOG + locale)})`,
        );
        return `export const catalogs = {${entries.join(',\n')}};`;
      }
      if (!id.startsWith(`\0${CATALOG}`)) return null;
      const locale = id.slice(CATALOG.length + 1) as CatalogLocale;
      if (!CATALOG_LOCALES.includes(locale)) throw new Error(`no catalog for ${locale}`);
      // English is every catalog's fallback: its files count for every locale.
      for (const file of [...catalogFiles('en'), ...catalogFiles(locale)]) this.addWatchFile(file);
      this.addWatchFile(MESSAGES_DIR);
      // JSON.parse of a string literal is quicker to load than the same object as JS.
      const json = JSON.stringify(compileCatalog(locale));
      return `export default JSON.parse(${JSON.stringify(json)});`;
    },
  };
}
