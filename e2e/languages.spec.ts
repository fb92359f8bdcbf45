import type { APIRequestContext, Page } from '@playwright/test';
import { translationsFor } from '../src/server/rendering/translations.ts';
import type { MessageId } from '../src/shared/i18n/message-id.ts';
import { formatsFor } from '../src/shared/i18n/formats.ts';
import { LOCALES, PSEUDO_LOCALE, type CatalogLocale } from '../src/shared/locales.ts';
import { expect, expectAccessible, IDS, listPages, ROWS, test } from './fixtures.ts';
import { interfaceText, plainWords, stringsIn } from '../src/test-support/interface-text.ts';

// The interface in other languages, in the browser: Arabic laid out right to left (rows with
// their number on the right, the channel's tabs, the Whole list panel and find, mirrored, and
// accessible), the pseudo-locale over what only the browser draws (the panel's answers, its
// charts, find), and the picker, whose choice the next page load keeps. Labels are looked up
// in the same catalogs the app uses.

const say = (locale: CatalogLocale, id: MessageId, values?: Record<string, unknown>) =>
  translationsFor(locale).i18n._(id, values);

/** Every string in a list's lookups: the data the interface shows as the service wrote it. */
async function listStrings(request: APIRequestContext, endpoint: string, id: string) {
  return stringsIn(await listPages(request, endpoint, id), new Set([id]));
}

/** The text a reader meets (text, labels, the title) that the interface itself wrote. */
async function interfaceWords(page: Page, data: Set<string>): Promise<string[]> {
  const texts = await page.evaluate(() => {
    const out: string[] = [document.title];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ALL);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node instanceof Text) {
        if (!node.parentElement?.closest('script, style, template')) out.push(node.data);
      } else if (node instanceof Element) {
        for (const name of ['aria-label', 'title', 'placeholder', 'alt', 'aria-valuetext'])
          if (node.getAttribute(name)) out.push(node.getAttribute(name)!);
      }
    }
    return out;
  });
  return plainWords(interfaceText(texts, data));
}

test.describe('Arabic, right to left', () => {
  test('the playlist: mirrored rows with their number on the right, accessible', async ({
    page,
  }) => {
    await page.goto(`/playlist/${IDS.playlist101}?hl=ar`);
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
    await expect(page.locator('html')).toHaveAttribute('lang', 'ar');
    await expect(
      page.getByText(say('ar', 'list.videoCount', { count: 101 })).first(),
    ).toBeVisible();
    const row = page.locator(ROWS).first();
    const number = row.getByText('1', { exact: true });
    const picture = row.locator('img').first();
    const [numberBox, pictureBox] = [await number.boundingBox(), await picture.boundingBox()];
    // Right to left: the number first, at the right edge, the picture after it to its left.
    expect(numberBox!.x).toBeGreaterThan(pictureBox!.x + pictureBox!.width - 1);
    await expectAccessible(page);
  });

  test('the channel: tabs in reading order from the right, both tabs work', async ({ page }) => {
    await page.goto(`/channel/${IDS.bigChannel}?hl=ar`);
    const tabs = page.getByRole('navigation', { name: say('ar', 'channel.sections.label') });
    const videos = tabs.getByRole('link', { name: say('ar', 'channel.tab.videos') });
    const playlists = tabs.getByRole('link', { name: say('ar', 'channel.tab.playlists') });
    await expect(videos).toHaveAttribute('aria-current', 'page');
    const [first, second] = [await videos.boundingBox(), await playlists.boundingBox()];
    expect(first!.x).toBeGreaterThan(second!.x);
    await expectAccessible(page);
    await playlists.click();
    // The app's own links leave the language to the page, which keeps it.
    await expect(page).toHaveURL(`/channel/${IDS.bigChannel}/playlists`);
    await expect(page.locator(ROWS).first()).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  });

  test('the Whole list panel and find: in Arabic, mirrored, accessible', async ({ page }) => {
    await page.goto(`/playlist/${IDS.playlist101}?hl=ar`);
    const panel = page.getByRole('button', { name: say('ar', 'wholeList.title'), exact: true });
    await panel.click();
    await expect(panel).toHaveAttribute('aria-expanded', 'true');
    await page
      .getByRole('button', { name: say('ar', 'wholeList.loadAll.start'), exact: true })
      .click();
    await expect(
      page.getByText(say('ar', 'wholeList.loadAll.allLoaded', { count: 101 })),
    ).toBeVisible();
    const find = page.getByRole('searchbox', { name: say('ar', 'wholeList.find.titles.label') });
    await find.fill('a');
    await expect(find).toHaveCSS('direction', 'rtl');
    // The field sits at the start of its line: on the right.
    const [field, body] = [await find.boundingBox(), await page.locator('main').boundingBox()];
    expect(field!.x + field!.width).toBeGreaterThan(body!.x + body!.width / 2);
    await expect(
      page.getByRole('button', { name: say('ar', 'wholeList.find.next') }),
    ).toBeEnabled();
    await expectAccessible(page);
  });
});

test('the pseudo-locale finds no word outside the catalogs in what the browser draws', async ({
  page,
  request,
}) => {
  const data = await listStrings(request, 'playlist', IDS.playlist101);
  await page.goto(`/playlist/${IDS.playlist101}?hl=${PSEUDO_LOCALE}`);
  await page
    .getByRole('button', { name: say(PSEUDO_LOCALE, 'wholeList.title'), exact: true })
    .click();
  await page
    .getByRole('button', { name: say(PSEUDO_LOCALE, 'wholeList.loadAll.start'), exact: true })
    .click();
  await expect(
    page.getByText(say(PSEUDO_LOCALE, 'wholeList.loadAll.allLoaded', { count: 101 })),
  ).toBeVisible();
  await page
    .getByRole('searchbox', { name: say(PSEUDO_LOCALE, 'wholeList.find.titles.label') })
    .fill('e');
  await expect(page.locator('svg').first()).toBeVisible();
  expect(await interfaceWords(page, data)).toEqual([]);
});

test('the pseudo-locale finds no word outside the catalogs in Following and its files', async ({
  page,
  request,
}) => {
  const data = stringsIn(
    await (await request.get(`/feeds/playlist/${IDS.playlist101}.json`)).json(),
  );
  await page.goto(`/playlist/${IDS.playlist101}?hl=${PSEUDO_LOCALE}`);
  await page.getByRole('button', { name: say(PSEUDO_LOCALE, 'following.button.follow') }).click();
  await page
    .getByRole('banner')
    .getByRole('link', { name: say(PSEUDO_LOCALE, 'following.title') })
    .click();
  await expect(page.getByText(say(PSEUDO_LOCALE, 'following.noChange'))).toBeVisible();
  // A refused import says why, in the page's language too.
  await page.getByLabel(say(PSEUDO_LOCALE, 'following.import.label')).setInputFiles({
    name: 'broken.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('Channel Id,Channel Url,Channel Title\nnot a channel,,x\n'),
  });
  await expect(page.getByRole('alert')).toBeVisible();
  const words = await interfaceWords(
    page,
    new Set([...data, 'not a channel,,x', 'CSV', 'JSON', 'OPML']),
  );
  expect(words).toEqual([]);
});

test('the picker switches the page at once and the next load keeps the choice', async ({
  page,
}) => {
  await page.goto(`/playlist/${IDS.playlist101}`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  await page.getByRole('combobox', { name: 'Language' }).selectOption('de');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(
    page.getByRole('button', { name: say('de', 'wholeList.title'), exact: true }),
  ).toBeVisible();
  await expect(page.getByText(say('de', 'list.videoCount', { count: 101 })).first()).toBeVisible();
  // A new page load: the server renders German from the remembered choice, and it hydrates.
  await page.goto(`/channel/${IDS.smallChannel}`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page.getByRole('combobox', { name: say('de', 'app.language') })).toHaveValue('de');
  await expect(page).toHaveTitle(new RegExp(` · ${say('de', 'channel.tab.videos')} · `));
});

test('a Japanese page hydrates without a mismatch, with numbers as Japanese writes them', async ({
  page,
}) => {
  const catalogs: string[] = [];
  page.on('request', (r) => {
    // The catalog chunks are named for their locale (shared/i18n/catalog-plugin.ts).
    const name = /\/assets\/([a-zA-Z-]+)-[\w-]{8}\.js$/.exec(new URL(r.url()).pathname)?.[1];
    if (name && (LOCALES as readonly string[]).includes(name)) catalogs.push(name);
  });
  await page.goto(`/playlist/${IDS.playlist5000}?hl=ja`);
  // Only the page's own language is downloaded.
  expect(catalogs).toEqual(['ja']);
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
  await expect(page.getByText(say('ja', 'list.videoCount', { count: 5000 })).first()).toContainText(
    formatsFor('ja').formatCount(5000),
  );
  // The app runs: a row's link works after hydration (the console guard fails on a mismatch).
  await page.locator(ROWS).nth(3).scrollIntoViewIfNeeded();
  await expect(page.locator(ROWS).nth(3)).toBeVisible();
});
