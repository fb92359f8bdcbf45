import type { Messages } from '@lingui/core';
import { catalogs } from 'virtual:catalogs';
import { catalogLocaleOf, DEFAULT_LOCALE, type CatalogLocale } from '../../shared/locales.ts';

// The page's language is the one the server rendered it in (`<html lang>`). Its catalog is a
// chunk of its own, asked for by the entry (boot.ts) at the moment it asks for the app's code,
// so that neither waits on the other.

export function documentLocale(): CatalogLocale {
  return catalogLocaleOf(document.documentElement.lang) ?? DEFAULT_LOCALE;
}

export async function loadCatalog(locale: CatalogLocale): Promise<Messages> {
  const load = catalogs[locale] ?? catalogs[DEFAULT_LOCALE]!;
  return (await load()).default;
}

let pageCatalog: Promise<Messages> | undefined;

/** The catalog of the page's language, asked for once. */
export function loadPageCatalog(): Promise<Messages> {
  pageCatalog ??= loadCatalog(documentLocale());
  return pageCatalog;
}
