import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setupI18n } from '@lingui/core';
import { afterEach, describe, expect, it } from 'vitest';
import { compileCatalog, readMessages } from './catalog-files.ts';

// Catalogs as written on disk: areas merged, English in place of what a locale lacks (never an
// ID on screen), the pseudo-locale's letters accented, and a message written twice refused.

let root: string;
afterEach(() => rmSync(root, { recursive: true, force: true }));

function catalogs(files: Record<string, Record<string, string>>): string {
  root = mkdtempSync(join(tmpdir(), 'catalogs-'));
  for (const [path, messages] of Object.entries(files)) {
    const [locale] = path.split('/');
    mkdirSync(join(root, locale!), { recursive: true });
    writeFileSync(join(root, path), JSON.stringify(messages));
  }
  return root;
}

const say = (locale: string, messages: ReturnType<typeof compileCatalog>) =>
  setupI18n({ locale, messages: { [locale]: messages } });

describe('compiled catalogs', () => {
  it('merge the areas, and give English for a message a locale lacks', () => {
    const dir = catalogs({
      'en/a.json': {
        'a.hello': 'Hello {name}',
        'a.count': '{n, plural, one {# video} other {# videos}}',
      },
      'en/b.json': { 'b.bye': 'Goodbye' },
      'de/a.json': { 'a.hello': 'Hallo {name}' },
    });
    const de = say('de', compileCatalog('de', dir));
    expect(de._('a.hello' as never, { name: 'Ada' })).toBe('Hallo Ada');
    expect(de._('b.bye' as never)).toBe('Goodbye');
    // English's plural, with German's number format.
    expect(de._('a.count' as never, { n: 5000 })).toBe('5.000 videos');
  });

  it('accent every letter of the pseudo-locale, placeholders and plurals intact', () => {
    const dir = catalogs({
      'en/a.json': {
        'a.count': '{n, plural, one {# video of {title}} other {# videos of {title}}}',
      },
    });
    const pseudo = say('en-XA', compileCatalog('en-XA', dir));
    expect(pseudo._('a.count' as never, { n: 2, title: 'Jazz' })).toBe('2 ṽīḓḗǿş ǿƒ Jazz');
  });

  it('refuse an ID written in two areas', () => {
    const dir = catalogs({ 'en/a.json': { 'x.y': 'One' }, 'en/b.json': { 'x.y': 'Two' } });
    expect(() => readMessages('en', dir)).toThrow(/written twice/);
  });
});
