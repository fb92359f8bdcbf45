import { LOCALE_NAMES, PSEUDO_LOCALE } from '../shared/locales.ts';

// What of a page's text the interface itself wrote: the reader's text with the page's data
// taken out (titles, names, IDs, URLs, the picker's language names), for the tests that look
// for words which bypassed the catalogs (the pseudo-locale's) or stayed English.

/** Every string in a JSON value (a page of the catalogue, a dehydrated query cache). */
export function stringsIn(value: unknown, into = new Set<string>()): Set<string> {
  if (typeof value === 'string') into.add(value);
  else if (Array.isArray(value)) for (const each of value) stringsIn(each, into);
  else if (value && typeof value === 'object')
    for (const each of Object.values(value)) stringsIn(each, into);
  return into;
}

/** `texts` with every data string taken out; texts left empty are dropped. */
export function interfaceText(texts: readonly string[], data: Iterable<string>): string[] {
  const all = [...data, ...Object.values(LOCALE_NAMES), PSEUDO_LOCALE].filter(
    (value) => value.trim() !== '',
  );
  // A short string (a letter, "in") is taken out only where it is the whole text: inside a
  // longer one it would cut the interface's own words apart.
  const whole = new Set(all.map((value) => value.trim()));
  const known = all.filter((value) => value.trim().length >= 3).sort((a, b) => b.length - a.length);
  return texts
    .map((text) => text.trim())
    .filter((text) => text !== '' && !whole.has(text))
    .map((text) =>
      known
        .reduce((rest, value) => rest.split(value).join(' '), text)
        .replace(/https?:\/\/\S+/g, ' ')
        .trim(),
    )
    .filter(Boolean);
}

/** Texts still holding a word in plain ASCII letters: in the pseudo-locale, none may. */
export const plainWords = (texts: readonly string[]) =>
  texts.filter((text) => /[A-Za-z]{2,}/.test(text));
