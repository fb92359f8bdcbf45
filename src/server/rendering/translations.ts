import { setupI18n, type I18n, type Messages } from '@lingui/core';
import { compileCatalog } from '../../shared/i18n/catalog-files.ts';
import type { CatalogLocale } from '../../shared/locales.ts';

// The server speaks every locale: each catalog is compiled once, on first use, and kept for the
// process's life, as all of them together are small. The app's server entry renders with the
// same compiled catalog the browser's chunk holds, so its markup hydrates as is.

export interface Translations {
  locale: CatalogLocale;
  /** The compiled catalog, for the app's server entry. */
  messages: Messages;
  /** For the server's own words: previews, cards, the refusal page. */
  i18n: I18n;
}

const byLocale = new Map<CatalogLocale, Translations>();

export function translationsFor(locale: CatalogLocale): Translations {
  let known = byLocale.get(locale);
  if (!known) {
    const messages = compileCatalog(locale);
    const i18n = setupI18n({ locale, messages: { [locale]: messages } });
    known = { locale, messages, i18n };
    byLocale.set(locale, known);
  }
  return known;
}
