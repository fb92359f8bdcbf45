import { useLingui } from '@lingui/react';
import { useMemo } from 'react';
import { catalogLocaleOf, DEFAULT_LOCALE, type CatalogLocale } from '../../shared/locales.ts';
import { formatsFor, type Formats } from '../lib/format.ts';

// What a component needs to speak the reader's language: `t` for the catalog's messages (ICU,
// with the locale's plural rules) and the locale's number and duration formats. Every
// user-visible word of the app comes through here; the pseudo-locale test finds any that
// does not.

export interface Translation extends Formats {
  t: ReturnType<typeof useLingui>['i18n']['t'];
  locale: CatalogLocale;
}

export function useTranslation(): Translation {
  const { i18n } = useLingui();
  const locale = catalogLocaleOf(i18n.locale) ?? DEFAULT_LOCALE;
  return useMemo(() => ({ t: i18n.t, locale, ...formatsFor(locale) }), [i18n, locale]);
}
