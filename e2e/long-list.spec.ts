import type { Page } from '@playwright/test';
import { expect, IDS, ROWS, test } from './fixtures.ts';

// Scaled scrolling on the 20,000-item playlist, with the height at which it starts lowered to
// 1,000,000 px (the rows are 20,000 × 80–96 px, so the list is drawn shorter than it is): every
// row is still reached by dragging, by a deep link and by End, and the scrollbar's position is
// the row's place in the list. The real server and embedded catalogue, over HTTP.

const LOWERED_PX = 1_000_000;

test.beforeEach(async ({ page }) => {
  await page.addInitScript((limit) => {
    globalThis.catalogueMaxListPx = limit;
  }, LOWERED_PX);
  await page.setViewportSize({ width: 1280, height: 800 });
});

const row = (position: number) => `${ROWS}[aria-posinset="${position}"]`;

/** The position of the first row whose bottom is in the window. */
const topRow = (page: Page) =>
  page.evaluate((selector) => {
    const rows = [...document.querySelectorAll(selector)]
      .map((element) => ({ element, rect: element.getBoundingClientRect() }))
      .filter(({ rect }) => rect.bottom > 0 && rect.top < window.innerHeight)
      .sort((a, b) => a.rect.top - b.rect.top);
    return Number(rows[0]?.element.getAttribute('aria-posinset') ?? 0);
  }, ROWS);

async function openList(page: Page, query = ''): Promise<void> {
  await page.goto(`/playlist/${IDS.playlist20000}${query}`);
  await expect(page.locator('[role="feed"] article[tabindex]').first()).toBeAttached();
}

test('the list is drawn no taller than the limit, and dragging to the bottom shows row 20,000', async ({
  page,
}) => {
  test.slow(); // the rows at the bottom wait for the 200 pages before them
  await openList(page);
  const drawn = await page.locator('[role="feed"]').evaluate((feed) => feed.clientHeight);
  expect(drawn).toBe(LOWERED_PX);

  // A drag of the scrollbar's thumb to the bottom, as the window sees it: the scroll position set
  // in steps, a frame apart (headless Chromium draws no scrollbar to take hold of).
  await page.evaluate(async () => {
    const travel = document.documentElement.scrollHeight - window.innerHeight;
    for (let step = 1; step <= 20; step++) {
      window.scrollTo(0, Math.round((travel * step) / 20));
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
  });

  // Its row is drawn at once, a placeholder until the 200 pages before it are in.
  await expect(page.locator(row(20_000)).getByRole('link').first()).toBeInViewport({
    timeout: 90_000,
  });
  await expect(page.getByText('End of playlist · 20,000 videos')).toBeInViewport();
});

test('the scrollbar’s position is the row’s place in the list, within 1 %', async ({ page }) => {
  await openList(page);
  for (const fraction of [0.25, 0.5, 0.8]) {
    await page.evaluate((fraction) => {
      const travel = document.documentElement.scrollHeight - window.innerHeight;
      window.scrollTo(0, Math.round(travel * fraction));
    }, fraction);
    // Placeholders or rows, the row elements are drawn at once, with their positions.
    await expect.poll(() => topRow(page)).toBeGreaterThan(1);
    const position = await topRow(page);
    expect(Math.abs(position / 20_000 - fraction), `row ${position} at ${fraction}`).toBeLessThan(
      0.01,
    );
  }
});

test('a deep link to item 15,000 lands on it', async ({ page }) => {
  test.slow();
  await page.goto(`/playlist/${IDS.playlist20000}?index=15000`);
  const target = page.locator(row(15_000));
  await expect(target.locator('[aria-current="true"]')).toBeInViewport({ timeout: 90_000 });
  expect(await topRow(page)).toBeGreaterThanOrEqual(14_999);
});

test('End reaches the last item, and Home the first', async ({ page }) => {
  test.slow();
  await openList(page);
  await page.keyboard.press('End');
  await expect(page.locator(row(20_000)).getByRole('link').first()).toBeInViewport({
    timeout: 90_000,
  });
  await page.keyboard.press('Home');
  await expect(page.locator(row(1)).getByRole('link').first()).toBeInViewport();
});

test('pages far behind a deep link are let go, and read again when the reader goes back', async ({
  page,
}) => {
  test.slow();
  const firstPages: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.searchParams.get('id') === IDS.playlist20000 && !url.searchParams.has('continuation'))
      firstPages.push(url.pathname);
  });
  await page.goto(`/playlist/${IDS.playlist20000}?index=15000`);
  await expect(page.locator(row(15_000)).locator('[aria-current="true"]')).toBeInViewport({
    timeout: 90_000,
  });
  // 150 pages were read to reach it: the first ones, far above, are let go once the chain rests.
  const asked = firstPages.length;
  await page.evaluate(() => window.scrollTo(0, 0));
  const first = page.locator(row(1));
  await expect(first.getByRole('link').first()).toBeVisible({ timeout: 20_000 });
  expect(firstPages.length, 'the first page read again').toBeGreaterThan(asked);
  // Back where the reader was, the rows are there (read again too, or never let go).
  await page.goto(`/playlist/${IDS.playlist20000}?index=15000`);
  await expect(page.locator(row(15_000)).getByRole('link').first()).toBeVisible({
    timeout: 90_000,
  });
});
