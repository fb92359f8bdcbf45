import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import {
  catalogLocaleOf,
  chooseLocale,
  LANGUAGE_COOKIE,
  LANGUAGE_PARAM,
  type CatalogLocale,
} from '../../shared/locales.ts';

// The language of a page: the link's own `?hl=` first (a shared link shows what its sender saw),
// then the reader's pick (a cookie the language picker sets), then Accept-Language, then English.
// Nothing here fails or redirects: an unknown or malformed value is passed over.

export interface RequestLocale {
  locale: CatalogLocale;
  /**
   * What the answer varies with beyond its URL (the `Vary` header's names), so that no cache in
   * between serves one reader's language to another; empty when the URL names its language.
   */
  vary: string[];
}

export function requestLocale(c: Context, url: URL): RequestLocale {
  const hl = url.searchParams.get(LANGUAGE_PARAM);
  const { locale } = chooseLocale({
    hl,
    remembered: getCookie(c, LANGUAGE_COOKIE),
    acceptLanguage: c.req.header('accept-language'),
  });
  const named = catalogLocaleOf(hl) !== undefined;
  return { locale, vary: named ? [] : ['Accept-Language', 'Cookie'] };
}
