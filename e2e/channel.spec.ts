import type { Page } from '@playwright/test';
import { expect, expectAccessible, IDS, ROWS, test } from './fixtures.ts';

// The channel views: videos and playlists tabs, the empty answer, and going back.

test('a channel’s videos: header, tabs and rows with compact view counts', async ({ page }) => {
  await page.goto(`/channel/${IDS.bigChannel}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Catalogue Demo Studios');
  await expect(page).toHaveTitle('Catalogue Demo Studios · Videos · Catalogue Explorer');
  const tabs = page.getByRole('navigation', { name: 'Channel sections' });
  await expect(tabs.getByRole('link', { name: 'Videos' })).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('link', { name: /Open on YouTube/ })).toHaveAttribute(
    'href',
    `https://www.youtube.com/channel/${IDS.bigChannel}`,
  );
  const first = page.getByRole('feed', { name: 'Videos' }).getByRole('article').first();
  await expect(first).toContainText(/\d+(\.\d)?[KMB]? views/);
  await expect(first).toContainText(/(\d+:)?\d{1,2}:\d{2}|LIVE/);
  // Axe on the view as it loads is first-view.spec's, on a desktop and a phone.

  await tabs.getByRole('link', { name: 'Playlists' }).click();
  await expect(page).toHaveURL(`/channel/${IDS.bigChannel}/playlists`);
  await expect(tabs.getByRole('link', { name: 'Playlists' })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(
    page.getByRole('feed', { name: 'Playlists' }).getByRole('article').first(),
  ).toContainText(/\d+ videos?/);
  await expect(page).toHaveTitle('Catalogue Demo Studios · Playlists · Catalogue Explorer');
  await expectAccessible(page);
});

test('/channel/:id/videos is the videos tab too', async ({ page }) => {
  await page.goto(`/channel/${IDS.smallChannel}/videos`);
  await expect(
    page
      .getByRole('navigation', { name: 'Channel sections' })
      .getByRole('link', { name: 'Videos' }),
  ).toHaveAttribute('aria-current', 'page');
  await expect(page.locator(ROWS).first()).toBeVisible();
  await expect(page.locator(ROWS).first()).toHaveAttribute('aria-setsize', /\d+/);
});

test('a channel without playlists says so, not as an error', async ({ page }) => {
  await page.goto(`/channel/${IDS.smallChannel}/playlists`);
  await expect(page.getByText('This channel has no public playlists')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expectAccessible(page);
});

test('an unknown channel shows not found', async ({ page, expectConsoleErrors }) => {
  expectConsoleErrors(/status of 404/);
  await page.goto('/channel/UCnoSuchChannelAnywhere1');
  await expect(page.getByRole('heading', { name: 'Channel not found' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to the home page' })).toBeVisible();
});

/** How far ahead of the rows on screen the list loads (window-list.tsx's PREFETCH_ROWS). */
const PREFETCH_ROWS = 60;

/** Rows loaded below the last one rendered: a list's length minus the last row's position. */
function rowsLoadedBelowRendered(page: Page): Promise<number> {
  return page.evaluate((selector) => {
    const rows = [...document.querySelectorAll(selector)];
    if (rows.length === 0) return 0;
    const last = Math.max(...rows.map((row) => Number(row.getAttribute('aria-posinset'))));
    return Number(rows[0]?.getAttribute('aria-setsize') ?? 0) - last;
  }, ROWS);
}

test('back from a playlist opened from a channel’s playlists returns to the same position without a request', async ({
  page,
}) => {
  let inFlight = 0;
  const isLookup = (r: { url(): string }) => r.url().includes('/api/');
  page.on('request', (r) => void (isLookup(r) && inFlight++));
  page.on('requestfinished', (r) => void (isLookup(r) && inFlight--));
  page.on('requestfailed', (r) => void (isLookup(r) && inFlight--));
  await page.goto(`/channel/${IDS.bigChannel}/playlists`);
  const list = page.getByRole('feed', { name: 'Playlists' });
  await expect(list.getByRole('article').first()).toBeVisible();
  // Scroll past the first page (30 playlists), so that more pages are loaded ahead.
  await page.mouse.wheel(0, 2500);
  await expect
    .poll(async () => Number(await page.locator(ROWS).first().getAttribute('aria-setsize')))
    .toBeGreaterThanOrEqual(60);
  await page.mouse.wheel(0, 2000);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(4000);
  // Nothing in flight when the user leaves, and nothing about to be: pages are asked for well
  // ahead of the end, and the list asks again only once its last rendered row comes within
  // PREFETCH_ROWS of the last row loaded.
  await expect
    .poll(async () => (inFlight === 0 ? await rowsLoadedBelowRendered(page) : 0))
    .toBeGreaterThan(PREFETCH_ROWS);
  await expect.poll(() => inFlight).toBe(0);
  // Let the scroll settle: the position is remembered as it changes.
  const y = await page.evaluate(
    () =>
      new Promise<number>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(window.scrollY))),
      ),
  );
  // A row in the middle of the window.
  const posinset = await page.evaluate(
    (selector) =>
      [...document.querySelectorAll(selector)]
        .find((row) => row.getBoundingClientRect().top > window.innerHeight / 2)
        ?.getAttribute('aria-posinset'),
    ROWS,
  );
  const opened = page.locator(`${ROWS}[aria-posinset="${posinset}"]`);
  const name = (await opened.getByRole('link').textContent()) ?? '';
  await opened.getByRole('link').click();
  await expect(page).toHaveURL(/\/playlist\/[\w-]+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);

  const lookups: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/')) lookups.push(r.url());
  });
  await page.goBack();
  await expect(page).toHaveURL(`/channel/${IDS.bigChannel}/playlists`);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(y);
  await expect(page.locator(`${ROWS}[aria-posinset="${posinset}"]`)).toBeInViewport();

  await page.goForward();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);
  await page.goBack();
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(y);
  expect(lookups).toEqual([]);
});
