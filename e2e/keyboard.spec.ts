import type { Page } from '@playwright/test';
import { expect, expectAccessible, IDS, ROWS, test } from './fixtures.ts';

// The endless lists as a WAI-ARIA feed: keys between rows, focus kept while rows recycle,
// aria-busy while rows load, the keys overlay; on the real server and embedded catalogue.

// A row takes the focus once the app has taken over the server's rows (they are not focusable).
const ROW = (position: number) => `${ROWS}[tabindex][aria-posinset="${position}"]`;

const activePosition = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute('aria-posinset') ?? null);

test('j/k, Page Down and End move the focus between items, End to item 5,000', async ({ page }) => {
  test.slow(); // End loads every page of the 5,000
  await page.goto(`/playlist/${IDS.playlist5000}`);
  const first = page.locator(ROW(1));
  await first.focus();
  await expect(page.locator('[role="feed"]')).toBeVisible();
  await page.keyboard.press('j');
  await expect.poll(() => activePosition(page)).toBe('2');
  await page.keyboard.press('ArrowDown');
  await expect.poll(() => activePosition(page)).toBe('3');
  await page.keyboard.press('k');
  await expect.poll(() => activePosition(page)).toBe('2');
  await page.keyboard.press('PageDown');
  const afterPage = Number(await activePosition(page));
  expect(afterPage).toBeGreaterThan(3);
  await page.keyboard.press('PageUp');
  await expect.poll(() => activePosition(page)).toBe('2');
  await page.keyboard.press('End');
  await expect.poll(() => activePosition(page), { timeout: 60_000 }).toBe('5000');
  await expect(page.locator(`${ROWS}[aria-posinset="5000"]`)).toBeInViewport();
  await page.keyboard.press('Home');
  await expect.poll(() => activePosition(page), { timeout: 20_000 }).toBe('1');
});

test('Tab enters the list once and leaves it: one row is a tab stop', async ({ page }) => {
  await page.goto(`/playlist/${IDS.playlist5000}`);
  await expect(page.locator(`${ROWS}[aria-posinset="1"]`)).toBeVisible();
  await expect(page.locator('[role="feed"]')).toBeVisible();
  const stops = await page.locator(`${ROWS}[tabindex="0"]`).count();
  expect(stops).toBe(1);
  // Links in rows other than the tab stop's are not tab stops.
  const linksOutside = await page
    .locator(`${ROWS}[tabindex="-1"] a[href]:not([tabindex="-1"])`)
    .count();
  expect(linksOutside).toBe(0);
});

test('the focused item stays focused while rows recycle under the mouse wheel, and j moves on from it', async ({
  page,
}) => {
  await page.goto(`/playlist/${IDS.playlist5000}`);
  const third = page.locator(ROW(3));
  await third.focus();
  for (let i = 0; i < 8; i += 1) {
    await page.mouse.wheel(0, 1500);
    await page.waitForTimeout(100);
  }
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(5000);
  // Item 3 is far above the window, yet still in the DOM and focused.
  expect(await activePosition(page)).toBe('3');
  await page.keyboard.press('j');
  await expect.poll(() => activePosition(page)).toBe('4');
  await expect(page.locator(`${ROWS}[aria-posinset="4"]`)).toBeInViewport();
});

test('the feed is aria-busy while rows load', async ({ page }) => {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { busySeen: string[] }).busySeen = seen;
    new MutationObserver((records) => {
      for (const record of records) {
        const target = record.target as Element;
        if (target.getAttribute('role') === 'feed')
          seen.push(target.getAttribute('aria-busy') ?? '');
      }
    }).observe(document, { attributes: true, attributeFilter: ['aria-busy'], subtree: true });
  });
  await page.goto(`/playlist/${IDS.playlist5000}`);
  await expect(page.locator(`${ROWS}[aria-posinset="1"]`)).toBeVisible();
  await page.mouse.wheel(0, 20_000);
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { busySeen: string[] }).busySeen))
    .toContain('true');
  await expect(page.locator('[role="feed"]')).toHaveAttribute('aria-busy', 'false', {
    timeout: 20_000,
  });
});

test('? opens the keys overlay, Escape closes it and the focus goes back to the item; axe clean', async ({
  page,
}) => {
  await page.goto(`/playlist/${IDS.playlist5000}`);
  const second = page.locator(ROW(2));
  await second.focus();
  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Keys' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Next item')).toBeVisible();
  await expectAccessible(page);
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect.poll(() => activePosition(page)).toBe('2');
  await expectAccessible(page);
});

test('End on a channel says what reaching its end costs before reading any page for it', async ({
  page,
}) => {
  const pages: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/v1/channel-videos')) pages.push(request.url());
  });
  await page.goto(`/channel/${IDS.bigChannel}`);
  await page.locator(ROW(2)).focus();
  const before = pages.length;
  await page.keyboard.press('End');
  const note = page.getByRole('status').filter({ hasText: 'This channel’s end is not known' });
  await expect(note).toBeVisible();
  await expect(note).toBeFocused();
  await expect(page.getByText(/A channel does not say how long it is/)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Load all', exact: true })).toBeVisible();
  // Nothing was walked for it: at most the page ahead the window asks for anyway.
  expect(pages.length - before).toBeLessThanOrEqual(1);
  await expectAccessible(page);
});
