import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse, type DefaultTreeAdapterMap } from 'parse5';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_IDS } from '../../catalogue/demo-fixtures.ts';
import { formatsFor } from '../../shared/i18n/formats.ts';
import {
  directionOf,
  LOCALES,
  OPEN_GRAPH_LOCALES,
  PSEUDO_LOCALE,
  type CatalogLocale,
} from '../../shared/locales.ts';
import { hasServerBuild, stateOf, TEST_TEMPLATE } from '../../test-support/app-shell.ts';
import { interfaceText, plainWords, stringsIn } from '../../test-support/interface-text.ts';
import {
  startExplorerFixture,
  type ExplorerFixture,
  type ServedExplorer,
} from '../../test-support/explorer-fixture.ts';

// Every view rendered by the server in every language: the document says its language and
// direction, the words are the catalog's (the pseudo-locale finds any that are not), numbers
// are grouped as the locale groups them, and the language is chosen from `?hl=`, the reader's
// cookie and Accept-Language, in that order, with answers that vary by header saying so.
// Needs the app's server build (`npm run build`); skipped without one.

type Node = DefaultTreeAdapterMap['node'];
type Element = DefaultTreeAdapterMap['element'];

const PLAYLIST = FIXTURE_IDS.playlist5000;
const CHANNEL = FIXTURE_IDS.smallChannel;

/** Every view, and the states a view can be in when the server renders it. */
const VIEWS = {
  home: '/',
  following: '/following',
  jobs: '/jobs',
  playlist: `/playlist/${PLAYLIST}`,
  deepLink: `/playlist/${PLAYLIST}?index=120`,
  panelOpen: `/playlist/${PLAYLIST}?q=talk&sort=views`,
  emptyPlaylist: `/playlist/${FIXTURE_IDS.playlistEmpty}`,
  channelVideos: `/channel/${CHANNEL}`,
  channelPlaylists: `/channel/${CHANNEL}/playlists`,
  embed: `/embed/playlist/${FIXTURE_IDS.playlist100}`,
  embedChannel: `/embed/channel/${CHANNEL}`,
  unknownList: '/playlist/PLnoSuchPlaylistAnywhere0000000000',
  badId: '/playlist/not-an-id',
  notFound: '/no/such/page',
};

/** Words of the English interface, none of which a Japanese or Arabic page may show. */
const ENGLISH_WORDS = [
  'Loading',
  'Skip to content',
  'Videos',
  'Playlists',
  'videos',
  'video',
  'Retry',
  'Not found',
  'Whole list',
  'newest',
  'Language',
  'home page',
  'Open',
  'Channel',
  'Playlist',
  'of',
  'in',
  'the',
  'and',
  'Try',
];

let fixture: ExplorerFixture;
let staticRoot: string;
let explorer: ServedExplorer;

beforeAll(async () => {
  fixture = await startExplorerFixture();
  staticRoot = mkdtempSync(join(tmpdir(), 'explorer-locales-'));
  writeFileSync(join(staticRoot, 'index.html'), TEST_TEMPLATE);
  if (hasServerBuild) cpSync(resolve('dist/.ssr'), join(staticRoot, '.ssr'), { recursive: true });
  // Renders are what is tested here, a few hundred of them: no allowance in the way.
  explorer = await fixture.serve({ STATIC_ROOT: staticRoot, RENDER_RATE_LIMIT_BURST: '100000' });
});
afterAll(async () => {
  await fixture?.close();
  rmSync(staticRoot, { recursive: true, force: true });
});

async function page(path: string, headers: Record<string, string> = {}) {
  const response = await explorer.get(path, { headers: { accept: 'text/html', ...headers } });
  return { response, text: await response.text() };
}

const inLanguage = (path: string, locale: CatalogLocale) =>
  page(`${path}${path.includes('?') ? '&' : '?'}hl=${locale}`);

/** Every string the page's data holds (titles, names, IDs): what the interface does not write. */
function dataStrings(html: string, path: string): Set<string> {
  // The path itself (the not-found view names it) and its parts (IDs), the query cache, and the
  // home page's examples (the demo catalogue's IDs).
  const strings = stringsIn(stateOf(html));
  for (const part of [path.split('?')[0]!, ...path.split(/[/?&=]/)]) strings.add(part);
  for (const id of Object.values(FIXTURE_IDS)) strings.add(id);
  // The feed formats the head names, by their own names.
  for (const format of ['Atom', 'RSS', 'JSON Feed']) strings.add(format);
  return strings;
}

const SKIPPED = new Set(['script', 'style', 'template', 'noscript']);
const READ_ATTRIBUTES = new Set(['aria-label', 'title', 'placeholder', 'alt', 'aria-description']);

/** What a reader meets in the page: its title, the body's text and labelling attributes. */
function readerText(html: string): string[] {
  const document = parse(html);
  const out: string[] = [];
  const visit = (node: Node) => {
    if (node.nodeName === '#text') {
      const text = (node as DefaultTreeAdapterMap['textNode']).value.trim();
      if (text) out.push(text);
      return;
    }
    if (!('childNodes' in node)) return;
    const element = node as Element;
    if (SKIPPED.has(element.nodeName)) return;
    for (const attribute of element.attrs ?? [])
      if (READ_ATTRIBUTES.has(attribute.name) && attribute.value.trim()) out.push(attribute.value);
    for (const child of element.childNodes) visit(child);
  };
  visit(document);
  return out;
}

/** The reader's text with every data string taken out. */
const interfaceTextOf = (html: string, path: string) =>
  interfaceText(readerText(html), dataStrings(html, path));

describe.skipIf(!hasServerBuild)('every view in every language', () => {
  it.each<CatalogLocale>([...LOCALES, PSEUDO_LOCALE])(
    '%s: the document says its language and direction, and the preview its locale',
    async (locale) => {
      for (const path of Object.values(VIEWS)) {
        const { text } = await inLanguage(path, locale);
        expect(text, path).toMatch(
          new RegExp(`<html lang="${locale}" dir="${directionOf(locale)}">`),
        );
        expect(text, path).toContain(
          `<meta property="og:locale" content="${OPEN_GRAPH_LOCALES[locale]}" />`,
        );
      }
    },
  );

  it('the pseudo-locale finds no word of the interface outside the catalogs', async () => {
    const unwrapped: string[] = [];
    for (const [view, path] of Object.entries(VIEWS)) {
      const { text } = await inLanguage(path, PSEUDO_LOCALE);
      for (const rest of plainWords(interfaceTextOf(text, path)))
        unwrapped.push(`${view}: ${rest}`);
    }
    expect(unwrapped).toEqual([]);
  });

  it.each(['ja', 'ar', 'zh-TW'] as const)(
    '%s pages hold no English word of the interface',
    async (locale) => {
      for (const path of Object.values(VIEWS)) {
        const { text } = await inLanguage(path, locale);
        const words = interfaceTextOf(text, path).join(' \n ');
        for (const word of ENGLISH_WORDS)
          expect(words, `${path}: “${word}”`).not.toMatch(
            new RegExp(`(?<![A-Za-z])${word}(?![A-Za-z])`),
          );
      }
    },
  );

  it('zh-TW pages are Traditional Chinese in Taiwan’s words, not Simplified Chinese', async () => {
    // Mainland terms, in either script, that Taiwan says otherwise (影片, 播放清單, 載入, 搜尋,
    // 匯出, 設定, 連結, 檔案): what a mechanical conversion of zh-CN, or a zh-CN fallback, shows.
    const mainland = /[视視][频頻]|播放列表|加[载載]|搜索|[导導]出|[设設]置|[链鏈]接|文件/;
    for (const path of Object.values(VIEWS)) {
      const { text } = await inLanguage(path, 'zh-TW');
      const words = interfaceTextOf(text, path).join(' \n ');
      expect(words, path).not.toMatch(mainland);
      expect(words, path).toMatch(/[\u4e00-\u9fff]/);
    }
  });

  it.each(LOCALES)('%s: counts are grouped as the locale groups them', async (locale) => {
    const { text } = await inLanguage(VIEWS.playlist, locale);
    const written = formatsFor(locale).formatCount(5000);
    expect(readerText(text).join('\n')).toContain(written);
    if (locale === 'de') expect(written).toBe('5.000');
    if (locale === 'fr') expect(written).toMatch(/^5\s000$/);
  });
});

describe.skipIf(!hasServerBuild)('choosing the language', () => {
  const langOf = (text: string) => /<html lang="([^"]+)"/.exec(text)?.[1];
  const canonicalOf = (text: string) => /<link rel="canonical" href="([^"]+)"/.exec(text)?.[1];

  it('negotiates Accept-Language, and says the answer varies with it', async () => {
    const { response, text } = await page(VIEWS.playlist, {
      'accept-language': 'xx-YY, de-AT;q=0.9, en;q=0.5',
    });
    expect(response.status).toBe(200);
    expect(langOf(text)).toBe('de');
    expect(response.headers.get('vary')).toMatch(/Accept-Language/);
    expect(response.headers.get('vary')).toMatch(/Cookie/);
  });

  it('gives Traditional Chinese readers zh-TW and Simplified ones zh-CN', async () => {
    for (const [header, expected] of [
      ['zh-HK, zh;q=0.8, en;q=0.5', 'zh-TW'],
      ['zh-Hant-TW, en;q=0.5', 'zh-TW'],
      ['zh-SG, en;q=0.5', 'zh-CN'],
    ] as const) {
      const { response, text } = await page(VIEWS.playlist, { 'accept-language': header });
      expect(langOf(text), header).toBe(expected);
      expect(response.headers.get('vary'), header).toMatch(/Accept-Language/);
    }
  });

  it('takes ?hl= over the header and the cookie; such an answer does not vary with them', async () => {
    const { response, text } = await page(`${VIEWS.playlist}?hl=ar`, {
      'accept-language': 'ja',
      cookie: 'hl=de',
    });
    expect(langOf(text)).toBe('ar');
    expect(text).toContain('dir="rtl"');
    expect(response.headers.get('vary')).not.toMatch(/Accept-Language|Cookie/);
  });

  it('takes the remembered choice over Accept-Language', async () => {
    const { text } = await page(VIEWS.playlist, { 'accept-language': 'ja', cookie: 'hl=ko' });
    expect(langOf(text)).toBe('ko');
  });

  it('passes over an unknown or malformed ?hl= and Accept-Language: no error, no redirect', async () => {
    for (const [hl, header, expected] of [
      ['klingon', 'fr', 'fr'],
      ['<script>', 'pt-PT', 'pt-BR'],
      ['', ';;;,q=2,*', 'en'],
      ['zh-Hans-CN', '', 'zh-CN'],
      ['x'.repeat(500), `${'a,'.repeat(200)}tr`, 'en'],
    ] as const) {
      const { response, text } = await page(`${VIEWS.playlist}?hl=${encodeURIComponent(hl)}`, {
        'accept-language': header,
      });
      expect(response.status, hl).toBe(200);
      expect(langOf(text), hl).toBe(expected);
    }
  });

  it('keeps one canonical URL whatever the language, and lists the others in og:locale:alternate', async () => {
    const english = canonicalOf((await page(VIEWS.deepLink)).text);
    const japanese = await inLanguage(VIEWS.deepLink, 'ja');
    expect(canonicalOf(japanese.text)).toBe(english);
    expect(english).not.toMatch(/hl=/);
    const alternates = [
      ...japanese.text.matchAll(/<meta property="og:locale:alternate" content="([^"]+)"/g),
    ].map((m) => m[1]);
    expect(alternates).toHaveLength(LOCALES.length - 1);
    expect(alternates).not.toContain('ja_JP');
  });

  it('names the card in the page’s language, and the card speaks it', async () => {
    const { text } = await inLanguage(VIEWS.playlist, 'ja');
    const card = /<meta property="og:image" content="([^"]+)"/.exec(text)?.[1];
    expect(card).toMatch(/[?&]hl=ja\b/);
    const english = await explorer.get(new URL(card!).pathname);
    const japanese = await explorer.get(`${new URL(card!).pathname}${new URL(card!).search}`);
    expect(japanese.status).toBe(200);
    expect(japanese.headers.get('etag')).not.toBe(english.headers.get('etag'));
  });
});
