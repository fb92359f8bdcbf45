import { readFile } from 'node:fs/promises';
import { cleanProfile, expect, expectAccessible, IDS, ROWS, test } from './fixtures.ts';
import { formatsFor } from '../src/shared/i18n/formats.ts';
import type { ListSummary } from '../src/shared/whole-list.ts';

// Progress through a long list, kept in this browser: the item opened from the explorer is
// marked and offered again on a later visit, its time left exact once the list is added up,
// watched items hidden on request, and all of it carried to another browser in the follow file;
// against the real server and catalogue.

const DAY_MS = 24 * 60 * 60 * 1000;
const row = (position: number) => `${ROWS}[aria-posinset="${position}"]`;

test('open item 412, come back a week later: Continue at #412, the exact time left, hide watched, and the same marks in a clean browser', async ({
  page,
  context,
  browser,
  request,
}) => {
  test.slow(); // adding up the 5,000 items reads their 50 pages
  // The platform's page opens in a new tab; there is no internet here, and none is needed.
  await context.route('https://www.youtube.com/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<title>watch</title>' }),
  );
  await page.goto(`/playlist/${IDS.playlist5000}?index=412`);
  const opened = page.locator(row(412));
  await expect(opened.getByRole('link').first()).toBeInViewport({ timeout: 20_000 });
  const toggle = opened.getByRole('button', { name: 'Mark #412 as watched' });
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  const popup = page.waitForEvent('popup');
  await opened.locator('a[target="_blank"]').first().click();
  await (await popup).close();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  const firstVisit = await page.evaluate(() => Date.now());
  await page.close();

  // A week later, in a new tab of the same browser, from the list's own address with no
  // position in it. The tab's clock is moved on a week before any of its scripts run
  // (Playwright's own clock is not used: with it installed, or fixed, the app never hydrates
  // here, not yet understood).
  page = await context.newPage();
  await page.addInitScript((shift) => {
    const RealDate = Date;
    class LaterDate extends RealDate {
      constructor(...args: ConstructorParameters<DateConstructor> | []) {
        if (args.length === 0) super(RealDate.now() + shift);
        else super(...(args as ConstructorParameters<DateConstructor>));
      }
      static override now() {
        return RealDate.now() + shift;
      }
    }
    globalThis.Date = LaterDate as DateConstructor;
  }, 7 * DAY_MS);
  await page.goto(`/playlist/${IDS.playlist5000}`);
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached' }); // a tab of our own
  expect(await page.evaluate(() => Date.now())).toBeGreaterThan(firstVisit + 7 * DAY_MS - 60_000);
  const resume = page.getByRole('link', { name: 'Continue at #412' });
  await expect(resume).toBeVisible({ timeout: 20_000 });
  const timeLeft = page.getByTestId('progress-time-left');
  await expect(timeLeft).toContainText('from #412 to the end');
  await expect(timeLeft).toContainText('estimated');
  // The entry is the first visit's, a week old.
  const stored = await page.evaluate(() => localStorage.getItem('catalogue-explorer.progress'));
  const at = (JSON.parse(stored!) as { entries: Record<string, { at: number }> }).entries[
    `playlist:${IDS.playlist5000}`
  ]!.at;
  expect(at).toBeLessThanOrEqual(firstVisit);
  await expectAccessible(page);

  // Once the list is added up, the time left is the summary's own from #412 to the end.
  await page.getByRole('button', { name: 'Whole list', exact: true }).click();
  // Pages another journey has read are in the server's cache: then adding up costs nothing,
  // and the panel does it at once, with no button to press.
  const addUp = page.getByRole('button', { name: 'Add up the whole list' });
  await expect(addUp.or(page.getByTestId('summary'))).toBeVisible({ timeout: 20_000 });
  if (await addUp.isVisible()) await addUp.click();
  const answer = await request.get(`/api/summary/playlist/${IDS.playlist5000}?from=412`);
  expect(answer.ok()).toBe(true);
  const fromHere = (await answer.json()) as ListSummary;
  // Written as the app writes durations (the shared formats), from the summary's seconds.
  const expected = formatsFor('en').formatLongDuration(fromHere.measure.total);
  await expect(timeLeft).not.toContainText('estimated', { timeout: 60_000 });
  await expect(timeLeft).toContainText(`${expected} left from #412 to the end`);

  // Hide watched, kept for the list: #412 leaves it, and its place shows #413.
  const hide = page.getByRole('checkbox', { name: 'Hide watched' });
  await hide.check();
  await expect(page.getByText('1 watched video hidden')).toBeVisible();
  await resume.click();
  await expect(page.getByRole('button', { name: 'Mark #413 as watched' })).toBeInViewport({
    timeout: 20_000,
  });
  await expect(page.getByRole('button', { name: 'Mark #412 as watched' })).toHaveCount(0);
  await hide.uncheck(); // which scrolls the window up to the box
  await page.goto(`/playlist/${IDS.playlist5000}?index=412`);
  await expect(page.getByRole('button', { name: 'Mark #412 as watched' })).toBeInViewport({
    timeout: 20_000,
  });

  // The follow file carries the progress to a clean browser, with the list followed.
  await page.getByRole('button', { name: 'Follow', exact: true }).click();
  await page.goto('/following');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download JSON' }).click();
  const file = await readFile((await (await download).path())!, 'utf8');
  const clean = await cleanProfile(browser, new URL(page.url()).origin);
  try {
    const other = await clean.newPage();
    await other.goto('/following');
    await other.getByLabel('Choose a file to import').setInputFiles({
      name: 'following.json',
      mimeType: 'application/json',
      buffer: Buffer.from(file),
    });
    await expect(other.getByText(/lists? added/)).toBeVisible();
    await other.goto(`/playlist/${IDS.playlist5000}`);
    await expect(other.getByRole('link', { name: 'Continue at #412' })).toBeVisible({
      timeout: 20_000,
    });
    await other.goto(`/playlist/${IDS.playlist5000}?index=412`);
    await expect(
      other.locator(row(412)).getByRole('button', { name: 'Mark #412 as watched' }),
    ).toHaveAttribute('aria-pressed', 'true', { timeout: 20_000 });
  } finally {
    await clean.close();
  }
});

test('a watched mark is set and cleared by hand, and kept across a reload', async ({ page }) => {
  await page.goto(`/playlist/${IDS.playlist5000}`);
  const toggle = page.locator(row(3)).getByRole('button', { name: 'Mark #3 as watched' });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await page.reload();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true', { timeout: 20_000 });
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
});
