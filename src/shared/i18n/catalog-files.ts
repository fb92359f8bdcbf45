import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileMessage } from '@lingui/message-utils/compileMessage';
import type { Messages } from '@lingui/core';
import { DEFAULT_LOCALE, PSEUDO_LOCALE, type CatalogLocale } from '../locales.ts';
import { pseudoText } from './pseudo-text.ts';

// The message catalogs as written: src/shared/messages/<locale>/<area>.json, ICU messages by
// ID, one file per area of the product so that the interface's parts can be written (and
// translated) apart. Read at build time for the browser (catalog-plugin.ts compiles each
// locale into a chunk of its own) and at start-up by the server, which renders in every
// locale. English is the source: its IDs are the message IDs (message-id.ts), and a message a
// locale lacks is English's, compiled in its place (the completeness test reports it).

export const MESSAGES_DIR = fileURLToPath(new URL('../messages/', import.meta.url));

/** The files a locale's catalog is read from (none for a locale not written yet). */
export function catalogFiles(locale: string, root = MESSAGES_DIR): string[] {
  const dir = join(root, locale);
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => join(dir, name));
}

/** A locale's messages as written, every area together; an ID in two areas is an error. */
export function readMessages(locale: string, root = MESSAGES_DIR): Record<string, string> {
  const messages: Record<string, string> = {};
  for (const file of catalogFiles(locale, root)) {
    const area = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    for (const [id, message] of Object.entries(area)) {
      if (typeof message !== 'string') throw new Error(`${file}: ${id} is not a string`);
      if (id in messages) throw new Error(`${file}: ${id} is written twice`);
      messages[id] = message;
    }
  }
  return messages;
}

/**
 * A locale's catalog ready for Lingui: every English ID, in the locale's words where it has
 * them, compiled (ICU parsed once here, not in the browser). The pseudo-locale is English with
 * every letter of its own text swapped for a look-alike: a word of the interface that does not
 * come through the catalog stands out in it (the "no string left behind" tests).
 */
export function compileCatalog(locale: CatalogLocale, root = MESSAGES_DIR): Messages {
  const english = readMessages(DEFAULT_LOCALE, root);
  const own = locale === PSEUDO_LOCALE ? english : { ...english, ...readMessages(locale, root) };
  const map = locale === PSEUDO_LOCALE ? pseudoText : undefined;
  const compiled: Messages = {};
  for (const [id, message] of Object.entries(own)) compiled[id] = compileMessage(message, map);
  return compiled;
}
