import {
  expect,
  expectAccessible,
  IDS,
  inViewport,
  maxRowsSeen,
  ROWS,
  scrollUntil,
  test,
  trackMaxRows,
} from './fixtures.ts';

// The playlist view: deep links, endless scrolling, empty and not-found states.

test('a deep link to item 5,000 loads every page, scrolls there and shows the end, with few rows in the DOM', async ({
  page,
}) => {
  test.slow(); // 50 pages in sequence
  await trackMaxRows(page);
  await page.goto(`/playlist/${IDS.playlist5000}?index=5000`);
  await expect(page.getByRole('heading', { level: 1, name: /Every talk/ })).toBeVisible();
  const last = page.locator(`${ROWS}[aria-posinset="5000"]`);
  await expect(last).toBeInViewport({ timeout: 30_000 });
  await expect(last.locator('[aria-current="true"]')).toContainText('5,000');
  await expect(page.getByText('End of playlist · 5,000 videos')).toBeInViewport();
  expect(await maxRowsSeen(page)).toBeLessThanOrEqual(40);
  expect(await page.locator(ROWS).count()).toBeLessThanOrEqual(40);
  await expect(page).toHaveTitle('Every talk, 2010–2026 🎤 · Catalogue Explorer');
});

test('?index=2345 opens the playlist at item 2,345 and marks it; the address bar then follows the top item', async ({
  page,
}) => {
  await page.goto(`/playlist/${IDS.playlist5000}?index=2345`);
  const target = page.locator(`${ROWS}[aria-posinset="2345"]`);
  await expect(target).toBeInViewport({ timeout: 20_000 });
  await expect(target.locator('[aria-current="true"]')).toContainText('2,345');
  // The marked row is at the top of the window.
  const top = await target.evaluate((row) => row.getBoundingClientRect().top);
  expect(top).toBeGreaterThanOrEqual(0);
  expect(top).toBeLessThan(40);
  await expect(page).toHaveURL(/[?&]index=2345$/);

  const entries = await page.evaluate(() => history.length);
  await page.mouse.wheel(0, 112 * 20);
  await expect(page).toHaveURL(/[?&]index=2365$/);
  expect(await page.evaluate(() => history.length)).toBe(entries); // replaced, not added
});

test('the 101-video playlist shows exactly 101 items, then the end line', async ({ page }) => {
  const lookups: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/v1/')) lookups.push(r.url());
  });
  await page.goto(`/playlist/${IDS.playlist101}`);
  const list = page.getByRole('feed', { name: /^Videos in / });
  await expect(list.getByRole('article').first()).toBeVisible();
  const end = page.getByText('End of playlist · 101 videos');
  await scrollUntil(page, () => inViewport(end));
  const last = page.locator(`${ROWS}[aria-posinset="101"]`);
  await expect(last).toBeVisible();
  await expect(last).toHaveAttribute('aria-setsize', '101');
  await expect(page.locator(`${ROWS}[aria-posinset="102"]`)).toHaveCount(0);
  // Page 1 came inside the HTML or by one lookup; page 2 by one more; never a third.
  expect(lookups.length).toBeLessThanOrEqual(2);
  await expectAccessible(page);
});

test('the 100-video playlist is one page and ends at 100', async ({ page }) => {
  await page.goto(`/playlist/${IDS.playlist100}`);
  const end = page.getByText('End of playlist · 100 videos');
  await scrollUntil(page, () => inViewport(end));
  await expect(page.locator(`${ROWS}[aria-posinset="100"]`)).toBeVisible();
});

test('a playlist row shows its video and links out to the platform in a new tab', async ({
  page,
}) => {
  await page.goto(`/playlist/${IDS.playlist100}`);
  const first = page.locator(`${ROWS}[aria-posinset="1"]`);
  const link = first.getByRole('link', { name: /opens YouTube in a new tab/ });
  await expect(link).toHaveAttribute(
    'href',
    new RegExp(
      `^https://www\\.youtube\\.com/watch\\?v=[\\w-]{11}&list=${IDS.playlist100}&index=1$`,
    ),
  );
  await expect(link).toHaveAttribute('target', '_blank');
  await expect(link).toHaveAttribute('rel', /noopener/);
  await expect(first).toContainText(/(\d+:)?\d{1,2}:\d{2}|LIVE/);
  await expect(first.getByRole('link', { name: 'Catalogue Demo Studios' })).toHaveAttribute(
    'href',
    `/channel/${IDS.bigChannel}`,
  );
  // Its thumbnail: a JPEG the size the page states, the smallest that covers its 160 px box at
  // this screen's density, loaded at once in the first viewport and later further down.
  const image = first.locator('img');
  await expect(image).toHaveAttribute('loading', 'eager');
  await expect(image).toHaveAttribute('decoding', 'async');
  await expect(image).toHaveAttribute('sizes', '(min-width: 40rem) 160px, 112px');
  await expect
    .poll(() =>
      // The file's own size: naturalWidth is corrected for the density srcset chose it at.
      image.evaluate(async (img: HTMLImageElement) => {
        if (img.currentSrc === '') return null;
        const bitmap = await createImageBitmap(await (await fetch(img.currentSrc)).blob());
        return [new URL(img.currentSrc).pathname.split('/').at(-1), bitmap.width, bitmap.height];
      }),
    )
    .toEqual(['hqdefault.jpg', 168, 94]);
  await expect(page.locator(`${ROWS}[aria-posinset="10"] img`)).toHaveAttribute('loading', 'lazy');
});

test('the header links the channel, and a long description expands', async ({ page }) => {
  await page.goto(`/playlist/${IDS.playlist5000}`);
  await expect(page.getByRole('main')).toContainText('5,000 videos');
  const more = page.getByRole('button', { name: 'Show more' });
  if (await more.isVisible()) {
    await more.click();
    await expect(page.getByRole('button', { name: 'Show less' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
  }
  await page.getByRole('link', { name: 'Catalogue Demo Studios' }).first().click();
  await expect(page).toHaveURL(`/channel/${IDS.bigChannel}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Catalogue Demo Studios');
});

test('the empty playlist says so', async ({ page }) => {
  await page.goto(`/playlist/${IDS.playlistEmpty}`);
  await expect(page.getByText('This playlist has no videos.')).toBeVisible();
  await expect(page.locator(ROWS)).toHaveCount(0);
  await expectAccessible(page);
});

test('an unknown playlist shows not found, with a way home', async ({
  page,
  expectConsoleErrors,
}) => {
  expectConsoleErrors(/status of 404/);
  await page.goto(`/playlist/${IDS.unknownPlaylist}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Playlist not found' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await expect(page).toHaveTitle('Playlist not found · Catalogue Explorer');
  // Axe on this page is first-view.spec's, on a desktop and a phone.
  await page.getByRole('link', { name: 'Go to the home page' }).click();
  await expect(page).toHaveURL('/');
});

test('on a phone the playlist fits the screen and stays accessible', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(`/playlist/${IDS.playlist101}`);
  await expect(page.locator(`${ROWS}[aria-posinset="1"]`)).toBeVisible();
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - window.innerWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await expectAccessible(page);
});
