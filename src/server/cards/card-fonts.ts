import { hash } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

// The fonts preview cards are drawn with, shipped as npm packages (Noto, under the OFL) rather
// than whatever the machine has: a card looks the same on every deployment, and covers the
// scripts the catalogue holds (Latin, Cyrillic, Greek, Arabic, Devanagari, Japanese and
// Simplified Chinese, Hangul, and emoji). Traditional Chinese falls to the JP and SC fonts,
// which hold every character the zh-TW catalog writes, though not in Taiwan's glyph shapes
// (Noto Sans TC would be needed for those). sharp draws text with Pango, which finds fonts through fontconfig, so the
// folders go in a fontconfig file of our own that the process points FONTCONFIG_FILE at before
// any text is drawn (fontconfig reads it once, on first use).

const PACKAGES: Array<[pkg: string, weights: string[]]> = [
  ['@expo-google-fonts/noto-sans', ['400Regular', '700Bold']],
  ['@expo-google-fonts/noto-sans-arabic', ['400Regular', '700Bold']],
  ['@expo-google-fonts/noto-sans-devanagari', ['400Regular', '700Bold']],
  ['@expo-google-fonts/noto-sans-jp', ['400Regular', '700Bold']],
  ['@expo-google-fonts/noto-sans-sc', ['400Regular', '700Bold']],
  ['@expo-google-fonts/noto-sans-kr', ['400Regular', '700Bold']],
  ['@expo-google-fonts/noto-emoji', ['400Regular']],
];

/** Pango's family list: Latin first, then each script's own, emoji last. */
export const CARD_FAMILIES =
  'Noto Sans, Noto Sans Arabic, Noto Sans Devanagari, Noto Sans JP, Noto Sans SC, Noto Sans KR, Noto Emoji';

const xml = (text: string) =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');

let configured = false;

/** Points fontconfig at the shipped fonts (once per process; before the first card). */
export function useCardFonts(): void {
  if (configured) return;
  configured = true;
  const require = createRequire(import.meta.url);
  const folders = PACKAGES.flatMap(([pkg, weights]) => {
    const root = dirname(require.resolve(`${pkg}/package.json`));
    return weights.map((weight) => join(root, weight));
  });
  // One file per set of folders: two checkouts on one machine never point at each other's.
  const which = hash('sha1', folders.join('\n'), 'hex').slice(0, 12);
  const home = join(
    tmpdir(),
    `catalogue-explorer-fontconfig-${process.getuid?.() ?? 'user'}-${which}`,
  );
  mkdirSync(home, { recursive: true });
  const file = join(home, 'fonts.conf');
  // Written aside and renamed into place: another process (a test worker, a replica) may be
  // reading the file this moment, and must never meet it half written.
  const draft = join(home, `fonts.conf.${process.pid}`);
  writeFileSync(
    draft,
    [
      '<?xml version="1.0"?>',
      '<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">',
      '<fontconfig>',
      ...folders.map((folder) => `  <dir>${xml(folder)}</dir>`),
      `  <cachedir>${xml(join(home, 'cache'))}</cachedir>`,
      '</fontconfig>',
      '',
    ].join('\n'),
  );
  renameSync(draft, file);
  // Not configuration of ours: the environment is where the fontconfig library reads its file.
  // eslint-disable-next-line no-restricted-properties
  process.env.FONTCONFIG_FILE = file;
}
