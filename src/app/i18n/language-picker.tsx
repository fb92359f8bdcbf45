import { useLingui } from '@lingui/react';
import { useId, useTransition } from 'react';
import { useLocation, useNavigate } from 'react-router';
import {
  directionOf,
  LANGUAGE_COOKIE,
  LANGUAGE_PARAM,
  LOCALE_NAMES,
  LOCALES,
  matchLocale,
  type CatalogLocale,
} from '../../shared/locales.ts';
import { Select } from '../components/ui/text-field.tsx';
import { loadCatalog } from './load-catalog.ts';
import { useTranslation } from './use-translation.ts';

// The language picker: each language by its own name. A pick is remembered in a cookie, which
// the server reads to render the next page in it; the page itself switches at once, with the
// new catalog loaded first (only then does the text change, in one go).

const YEAR_SECONDS = 365 * 24 * 60 * 60;

function rememberLanguage(locale: CatalogLocale): void {
  const secure = window.location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${LANGUAGE_COOKIE}=${locale}; Path=/; Max-Age=${YEAR_SECONDS}; SameSite=Lax${secure}`;
}

export function LanguagePicker() {
  const { t, locale } = useTranslation();
  const { i18n } = useLingui();
  const location = useLocation();
  const navigate = useNavigate();
  const [switching, startSwitch] = useTransition();
  const id = useId();

  const choose = (value: string) => {
    const next = matchLocale(value);
    if (!next || next === locale) return;
    rememberLanguage(next);
    startSwitch(async () => {
      const messages = await loadCatalog(next);
      i18n.loadAndActivate({ locale: next, messages });
      document.documentElement.lang = next;
      document.documentElement.dir = directionOf(next);
      // A link that named its language now names the reader's choice, so that reloading or
      // sharing it shows what is on screen.
      const search = new URLSearchParams(location.search);
      if (search.has(LANGUAGE_PARAM)) {
        search.set(LANGUAGE_PARAM, next);
        void navigate({ ...location, search: `?${search}` }, { replace: true });
      }
    });
  };

  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="sr-only">
        {t('app.language')}
      </label>
      <Select
        id={id}
        value={locale}
        aria-busy={switching}
        onChange={(event) => choose(event.target.value)}
        // A fixed width: an auto one is the widest option's, which changes as the browser finds
        // a font for each script (Devanagari, Hangul…) and shifts the header as it does.
        className="w-28 sm:w-44"
      >
        {LOCALES.map((option) => (
          <option key={option} value={option} lang={option}>
            {LOCALE_NAMES[option]}
          </option>
        ))}
        {/* The pseudo-locale is never offered, but a page shown in it says so. */}
        {!(LOCALES as readonly string[]).includes(locale) ? (
          <option value={locale}>{locale}</option>
        ) : null}
      </Select>
    </div>
  );
}
