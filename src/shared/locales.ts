// The languages the explorer speaks, and how a request's is chosen. One list for the server
// (which negotiates and renders in it) and the app (which loads only its catalog).

export const LOCALES = [
  'en',
  'es',
  'pt-BR',
  'fr',
  'de',
  'ru',
  'ja',
  'ko',
  'zh-CN',
  'zh-TW',
  'hi',
  'tr',
  'ar',
] as const;

export type AppLocale = (typeof LOCALES)[number];

export const DEFAULT_LOCALE: AppLocale = 'en';

/**
 * A pseudo-locale for finding text that does not come through the catalogs (English with every
 * letter accented: i18n/pseudo-text.ts). Only `?hl=en-XA` names it: never negotiated, never in
 * the picker. The tag is the one browsers and platforms use for the same purpose.
 */
export const PSEUDO_LOCALE = 'en-XA';

/** Every locale a catalog is compiled for. */
export type CatalogLocale = AppLocale | typeof PSEUDO_LOCALE;

export const CATALOG_LOCALES: readonly CatalogLocale[] = [...LOCALES, PSEUDO_LOCALE];

/** The query parameter a shared link may carry to name its language (`?hl=ja`). */
export const LANGUAGE_PARAM = 'hl';

/** The cookie holding the language a reader picked (the server renders in it). */
export const LANGUAGE_COOKIE = 'hl';

/** The locale a tag names exactly, the pseudo-locale included (the document's `lang`). */
export function catalogLocaleOf(tag: string | null | undefined): CatalogLocale | undefined {
  if (tag?.toLowerCase() === PSEUDO_LOCALE.toLowerCase()) return PSEUDO_LOCALE;
  return matchLocale(tag);
}

/** Each language's own name, as its readers write it (the picker lists these). */
export const LOCALE_NAMES: Record<AppLocale, string> = {
  en: 'English',
  es: 'Español',
  'pt-BR': 'Português (Brasil)',
  fr: 'Français',
  de: 'Deutsch',
  ru: 'Русский',
  ja: '日本語',
  ko: '한국어',
  'zh-CN': '简体中文',
  'zh-TW': '繁體中文',
  hi: 'हिन्दी',
  tr: 'Türkçe',
  ar: 'العربية',
};

const RIGHT_TO_LEFT = new Set<AppLocale>(['ar']);

export function directionOf(locale: CatalogLocale): 'ltr' | 'rtl' {
  return RIGHT_TO_LEFT.has(locale as AppLocale) ? 'rtl' : 'ltr';
}

const BY_LOWER = new Map(LOCALES.map((locale) => [locale.toLowerCase(), locale]));

/**
 * A locale's own tag names it, and so does its bare language where it has one locale here; a
 * language with more is told apart by a subtag. Chinese has two, and what separates them is the script, not the country:
 * Traditional is written in Taiwan, Hong Kong and Macau, Simplified in mainland China, Singapore
 * and Malaysia. A script subtag therefore decides whatever the region (`zh-Hant-CN` → zh-TW),
 * then the region, and a bare `zh` is Simplified, the script most of its readers write.
 */
const BY_LANGUAGE = new Map<string, AppLocale>([
  ...LOCALES.map((locale) => [locale.split('-')[0]!.toLowerCase(), locale] as const),
  ...BY_LOWER,
  ['zh', 'zh-CN'],
  ['zh-hans', 'zh-CN'],
  ['zh-sg', 'zh-CN'],
  ['zh-my', 'zh-CN'],
  ['zh-hant', 'zh-TW'],
  ['zh-hk', 'zh-TW'],
  ['zh-mo', 'zh-TW'],
]);

/**
 * The supported locale a BCP 47 tag names: exactly (any case), or by its language (`pt-PT` →
 * `pt-BR`, `de-AT` → `de`, `zh-Hans-CN` → `zh-CN`, `zh-HK` → `zh-TW`). Undefined for anything
 * else, malformed input included: a tag is letters, digits and hyphens, at most 35 characters.
 */
export function matchLocale(tag: string | null | undefined): AppLocale | undefined {
  if (!tag || tag.length > 35 || !/^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/.test(tag))
    return undefined;
  const lower = tag.toLowerCase();
  const exact = BY_LOWER.get(lower);
  if (exact) return exact;
  const [language, ...subtags] = lower.split('-');
  // Subtags in the tag's own order (extended language, script, region, variants), so a script
  // is weighed before a region; a singleton starts extensions and private use, which say
  // nothing about the language (`zh-u-nu-hant` is not Traditional).
  for (const subtag of subtags) {
    if (subtag.length === 1) break;
    const locale = BY_LANGUAGE.get(`${language}-${subtag}`);
    if (locale) return locale;
  }
  return BY_LANGUAGE.get(language!);
}

/**
 * The languages of an Accept-Language header, most wanted first (RFC 9110 §12.5.4): tags with
 * a weight of 0 and malformed entries are left out, and only the first entries are read, so a
 * huge header costs no more than a normal one.
 */
export function acceptedLanguages(header: string | null | undefined): string[] {
  if (!header) return [];
  const entries: Array<{ tag: string; q: number; order: number }> = [];
  for (const [order, part] of header.split(',').slice(0, 20).entries()) {
    const [rawTag, ...params] = part.trim().split(';');
    const tag = rawTag?.trim() ?? '';
    if (tag === '' || tag === '*') continue;
    let q = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(param);
      if (match) q = Number(match[1]);
    }
    if (q > 0) entries.push({ tag, q, order });
  }
  return entries.sort((a, b) => b.q - a.q || a.order - b.order).map((entry) => entry.tag);
}

/** How a request's language was chosen: by a parameter or setting of its own, or negotiated. */
export interface LocaleChoice {
  locale: CatalogLocale;
  /** True when the Accept-Language header decided (the answer varies with it). */
  negotiated: boolean;
}

/**
 * The request's language: `?hl=` when it names one, then the reader's remembered choice, then
 * the best match of Accept-Language, then English. Nothing here fails: an unknown or malformed
 * value is passed over.
 */
export function chooseLocale(input: {
  hl?: string | null;
  remembered?: string | null;
  acceptLanguage?: string | null;
}): LocaleChoice {
  if (input.hl?.toLowerCase() === PSEUDO_LOCALE.toLowerCase())
    return { locale: PSEUDO_LOCALE, negotiated: false };
  const named = matchLocale(input.hl) ?? matchLocale(input.remembered);
  if (named) return { locale: named, negotiated: false };
  for (const tag of acceptedLanguages(input.acceptLanguage)) {
    const locale = matchLocale(tag);
    if (locale) return { locale, negotiated: true };
  }
  return { locale: DEFAULT_LOCALE, negotiated: true };
}

/**
 * The Open Graph form of each locale (`language_TERRITORY`, as og:locale takes it), with the
 * territory its readers are most often in where the tag names none.
 */
export const OPEN_GRAPH_LOCALES: Record<CatalogLocale, string> = {
  en: 'en_US',
  es: 'es_ES',
  'pt-BR': 'pt_BR',
  fr: 'fr_FR',
  de: 'de_DE',
  ru: 'ru_RU',
  ja: 'ja_JP',
  ko: 'ko_KR',
  'zh-CN': 'zh_CN',
  'zh-TW': 'zh_TW',
  hi: 'hi_IN',
  tr: 'tr_TR',
  ar: 'ar_AR',
  'en-XA': 'en_XA',
};
