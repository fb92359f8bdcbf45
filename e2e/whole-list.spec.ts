import type { Page } from '@playwright/test';
import { expect, IDS, ROWS, test } from './fixtures.ts';

// A playlist's list is as tall as the length its first page states, from the start: the rows not
// loaded yet are placeholders of the same height, so the scrollbar, End and Page Down reach any
// part of it, and the pages up to where the reader lands load in order.

/** Rows are 112 px high from the `sm` breakpoint (playlist-row.tsx). */
const ROW_HEIGHT = 112;

/** The window position that puts row `position` (1-based) at the top. */
function rowTop(page: Page, position: number): Promise<number> {
  return page.evaluate(
    ([selector, n, height]) => {
      const list = document.querySelector(selector)!.closest('[role="feed"]')!;
      return list.getBoundingClientRect().top + window.scrollY + (n - 1) * height;
    },
    [ROWS, position, ROW_HEIGHT] as const,
  );
}

const loadedRow = (page: Page, position: number) =>
  page.locator(`${ROWS}[aria-posinset="${position}"]`).getByRole('link').first();

test('the list is as tall as the playlist from its first page, with placeholders below', async ({
  page,
}) => {
  await page.goto(`/playlist/${IDS.playlist5000}`);
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  expect(height).toBeGreaterThan(5000 * ROW_HEIGHT);
  // Rows past the first page are there, as placeholders: no link in them yet.
  await page.evaluate((y) => window.scrollTo(0, y), await rowTop(page, 140));
  const placeholder = page.locator(`${ROWS}[aria-posinset="140"]`);
  await expect(placeholder).toBeAttached();
  // The pages up to there load, and the same row then holds its video.
  await expect(loadedRow(page, 140)).toBeVisible();
});

test('dragging the scrollbar deep into a cold playlist lands on the row aimed at', async ({
  page,
}) => {
  await page.goto(`/playlist/${IDS.playlist5000}`);
  // Other journeys share the server and may have warmed its cache: then the pages up to the
  // row arrive within a frame or two, too quickly for a poll to see the status. A watcher on
  // the DOM sees it however briefly it is shown.
  await page.evaluate(() => {
    const w = window as unknown as { __loadingShown: boolean };
    w.__loadingShown = false;
    new MutationObserver(() => {
      for (const status of document.querySelectorAll('[role="status"]'))
        if (/Loading up to #/.test(status.textContent ?? '')) w.__loadingShown = true;
    }).observe(document, { childList: true, subtree: true, characterData: true });
  });
  const y = await rowTop(page, 4000);
  // What a drag of the scrollbar does: the window jumps, with nothing loaded there.
  await page.evaluate((top) => window.scrollTo(0, top), y);
  await expect(loadedRow(page, 4000)).toBeVisible({ timeout: 30_000 });
  expect(
    await page.evaluate(() => (window as unknown as { __loadingShown: boolean }).__loadingShown),
    'the list said what it was loading',
  ).toBe(true);
  const top = await page
    .locator(`${ROWS}[aria-posinset="4000"]`)
    .evaluate((row) => row.getBoundingClientRect().top);
  expect(Math.abs(top)).toBeLessThan(2);
  await expect(page.getByRole('status').filter({ hasText: /Loading up to #/ })).toHaveCount(0);
});

test('End goes to the last video and Home back to the first', async ({ page }) => {
  await page.goto(`/playlist/${IDS.playlist5000}`);
  await page.keyboard.press('End');
  await expect(loadedRow(page, 5000)).toBeInViewport({ timeout: 30_000 });
  await expect(page.getByText('End of playlist · 5,000 videos')).toBeInViewport();
  await page.keyboard.press('Home');
  await expect(loadedRow(page, 1)).toBeInViewport();
});

test('Page Down through a page boundary shows the next page’s rows', async ({ page }) => {
  await page.goto(`/playlist/${IDS.playlist5000}`);
  await page.evaluate((y) => window.scrollTo(0, y), await rowTop(page, 95));
  for (let i = 0; i < 3; i++) await page.keyboard.press('PageDown');
  // Past the first page's end, and everything on screen is a loaded row, none a placeholder.
  await expect
    .poll(() =>
      page.evaluate((selector) => {
        const onScreen = [...document.querySelectorAll(selector)].filter((row) => {
          const rect = row.getBoundingClientRect();
          return rect.bottom > 0 && rect.top < window.innerHeight;
        });
        const loaded = onScreen.every((row) => row.querySelector('a') !== null);
        const last = Number(onScreen.at(-1)?.getAttribute('aria-posinset') ?? 0);
        return loaded && last > 100;
      }, ROWS),
    )
    .toBe(true);
});
