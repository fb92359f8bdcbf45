import { hash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

// The fonts preview cards are drawn with, shipped as npm packages (Noto, under the OFL) so that a
// card looks the same on every deployment and covers the scripts the catalogue holds (Traditional
// Chinese falls to the JP and SC fonts: every character, not Taiwan's glyph shapes). sharp draws
// text with Pango through fontconfig, so the folders go in a fontconfig file of our own, named by
// FONTCONFIG_FILE before any text is drawn. The server build copies the two weights the cards
// draw beside itself (`copyCardFonts`), so the packages are development dependencies only.

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

/** Each weight the cards draw: its package, and its folder in a build (the package's name). */
const WEIGHTS = PACKAGES.flatMap(([pkg, weights]) =>
  weights.map((weight) => ({ pkg, built: join(basename(pkg), weight), weight })),
);

/** A weight's folder inside its installed package (a development dependency). */
function packageFolder(pkg: string, weight: string): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve(`${pkg}/package.json`)), weight);
}

/** Copies the fonts the cards draw into `fontsDir` (the server build's fonts folder). */
export function copyCardFonts(fontsDir: string): void {
  for (const { pkg, weight, built } of WEIGHTS) {
    const folder = packageFolder(pkg, weight);
    for (const file of readdirSync(folder).filter((name) => name.endsWith('.ttf')))
      cpSync(join(folder, file), join(fontsDir, built, file));
  }
}

/** Where the built server finds the fonts copied beside it (dist/.server/fonts). */
const BUILT_FONTS = fileURLToPath(new URL('../fonts/', import.meta.url));

/** Points fontconfig at the shipped fonts (once per process; before the first card). */
export function useCardFonts(): void {
  if (configured) return;
  configured = true;
  const built = existsSync(BUILT_FONTS);
  const folders = WEIGHTS.map(({ pkg, weight, built: folder }) =>
    built ? join(BUILT_FONTS, folder) : packageFolder(pkg, weight),
  );
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
