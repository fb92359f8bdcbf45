import { parse, type Token } from '@messageformat/parser';
import { describe, expect, it } from 'vitest';
import { DEFAULT_LOCALE, LOCALES } from '../locales.ts';
import { catalogFiles, readMessages } from './catalog-files.ts';
import { basename } from 'node:path';

// Every locale has every message, and each of its messages is a sound translation of the
// English one: it parses as ICU, it uses the same arguments (a translation that drops
// `{count}` would show a sentence without its number; one that adds `{cnt}` would show
// nothing for it), and its plurals give every category the language's grammar has (Arabic
// has six, Russian four, Japanese one), so no count falls to a wrong form. A locale's missing
// message is English's at run time (catalog-files.ts); here it is a failure.

const english = readMessages(DEFAULT_LOCALE);
const OTHER_LOCALES = LOCALES.filter((locale) => locale !== DEFAULT_LOCALE);

/** Each argument of a message with its type (`count:plural`, `title:`), and its plurals. */
function shape(message: string) {
  const args = new Set<string>();
  const plurals: Array<{ arg: string; keys: string[]; ordinal: boolean }> = [];
  const walk = (tokens: Token[]) => {
    for (const token of tokens) {
      if (token.type === 'argument') args.add(`${token.arg}:`);
      else if (token.type === 'function') args.add(`${token.arg}:${token.key}`);
      else if (
        token.type === 'plural' ||
        token.type === 'select' ||
        token.type === 'selectordinal'
      ) {
        args.add(`${token.arg}:${token.type}`);
        if (token.type !== 'select')
          plurals.push({
            arg: token.arg,
            keys: token.cases.map((c) => c.key),
            ordinal: token.type === 'selectordinal',
          });
        for (const c of token.cases) walk(c.tokens);
      }
    }
  };
  walk(parse(message));
  return { args: [...args].sort(), plurals };
}

describe('the English catalog', () => {
  it('is spread over area files with no ID written twice, every message valid ICU', () => {
    expect(catalogFiles(DEFAULT_LOCALE).map((file) => basename(file))).toContain('app.json');
    expect(Object.keys(english).length).toBeGreaterThan(50);
    for (const [id, message] of Object.entries(english))
      expect(() => parse(message), id).not.toThrow();
  });
});

describe.each(OTHER_LOCALES)('the %s catalog', (locale) => {
  const messages = readMessages(locale);

  it('has every English message, and nothing else', () => {
    const missing = Object.keys(english).filter((id) => !(id in messages));
    const unknown = Object.keys(messages).filter((id) => !(id in english));
    expect({ missing, unknown }).toEqual({ missing: [], unknown: [] });
  });

  it('keeps each area file apart, as English does', () => {
    expect(catalogFiles(locale).map((file) => basename(file))).toEqual(
      catalogFiles(DEFAULT_LOCALE).map((file) => basename(file)),
    );
  });

  it('uses the same arguments as English in every message', () => {
    const differing: string[] = [];
    for (const [id, message] of Object.entries(messages)) {
      const source = english[id];
      if (source === undefined) continue;
      let own;
      try {
        own = shape(message);
      } catch (error) {
        differing.push(`${id}: not ICU (${String(error)})`);
        continue;
      }
      const expected = shape(source).args.filter((arg) => !arg.endsWith(':plural'));
      const got = own.args.filter((arg) => !arg.endsWith(':plural'));
      // A plural may become a plain number where the language has no plural forms.
      const names = (args: string[]) => [...new Set(args.map((arg) => arg.split(':')[0]))].sort();
      if (names(own.args).join() !== names(shape(source).args).join() || !sameTypes(expected, got))
        differing.push(`${id}: ${shape(source).args.join(' ')} → ${own.args.join(' ')}`);
    }
    expect(differing).toEqual([]);
  });

  it('gives every plural each category the language has', () => {
    const cardinal = new Intl.PluralRules(locale).resolvedOptions().pluralCategories;
    const ordinal = new Intl.PluralRules(locale, { type: 'ordinal' }).resolvedOptions()
      .pluralCategories;
    const lacking: string[] = [];
    for (const [id, message] of Object.entries(messages)) {
      let plurals;
      try {
        plurals = shape(message).plurals;
      } catch {
        continue; // reported above
      }
      for (const plural of plurals) {
        const needed = plural.ordinal ? ordinal : cardinal;
        const absent = needed.filter((category) => !plural.keys.includes(category));
        if (absent.length > 0) lacking.push(`${id} {${plural.arg}}: ${absent.join(', ')}`);
      }
    }
    expect(lacking).toEqual([]);
  });
});

/** Arguments other than plurals keep their type (a `{n, number}` stays a number). */
function sameTypes(expected: string[], got: string[]): boolean {
  const typed = (args: string[]) =>
    args
      .filter((arg) => !arg.endsWith(':'))
      .sort()
      .join();
  return typed(expected) === typed(got);
}
