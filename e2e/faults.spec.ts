import type { Locator, Page } from '@playwright/test';
import { everyCard } from './following-cards.ts';
import { expect, IDS, inViewport, ROWS, scrollUntil, test } from './fixtures.ts';

/**
 * The fault off, Retry once the server's back-off, counted down on screen, is over: the rows
 * come, and the error goes.
 */
async function retryOnceTheWaitIsOver(
  page: Page,
  faults: { reset: () => Promise<void> },
  problem: Locator,
): Promise<void> {
  await faults.reset();
  await expect(problem.getByRole('timer')).toHaveCount(0, { timeout: 20_000 });
  await problem.getByRole('button', { name: 'Retry' }).click();
  await expect(page.locator(`${ROWS}[aria-posinset="1"]`)).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
}

// Failures, switched on the embedded catalogue at run time (`/__faults`, spec §5.3). This file
// has a server of its own (playwright.config.ts) and its tests run one at a time, so a switched
// fault can only meet the request it is meant for. The `faults` fixture turns every switch off
// before and after each test and each test switches on what it needs; a test that leaves state
// in the explorer server itself waits until it has gone. That server keeps no page cache, so
// the catalogue answers every lookup. So each test runs alone, again, or in any order.

test('a failing next page shows Retry, keeps the loaded items, and recovers', async ({
  page,
  faults,
  expectConsoleErrors,
}) => {
  expectConsoleErrors(/status of 5\d\d/);
  await page.goto(`/playlist/${IDS.playlist101}`);
  await expect(page.locator(`${ROWS}[aria-posinset="1"]`)).toBeVisible();
  await faults.set({
    failNext: { count: 100, status: 500, endpoint: 'playlist', withContinuation: true },
  });

  const failure = page.getByRole('alert').filter({ hasText: 'Could not load more' });
  await scrollUntil(page, () => inViewport(failure));
  const retry = failure.getByRole('button', { name: 'Retry' });
  await expect(retry).toBeVisible();
  // Everything loaded before the failure is still there.
  await expect(page.locator(`${ROWS}[aria-posinset="100"]`)).toBeInViewport();
  await expect(page.locator(`${ROWS}[aria-posinset="100"]`)).toHaveAttribute('aria-setsize', '101');

  // The server holds a failing page back for a moment (its back-off) and says how long with
  // Retry-After: the footer counts down, and Retry reaches the healed catalogue once it is over.
  await faults.reset();
  await expect(failure.getByRole('timer')).toHaveCount(0, { timeout: 20_000 });
  await retry.click();
  await expect(page.getByText('End of playlist · 101 videos')).toBeVisible();
  await expect(page.locator(`${ROWS}[aria-posinset="101"]`)).toBeAttached();
  await expect(failure).toHaveCount(0);
});

test('a failing first page says the catalogue is unavailable, and Retry recovers', async ({
  page,
  faults,
  expectConsoleErrors,
}) => {
  expectConsoleErrors(/status of 5\d\d/);
  await faults.set({ failNext: { count: 100, status: 503, endpoint: 'channel-videos' } });
  await page.goto(`/channel/${IDS.smallChannel}`);
  const problem = page.getByRole('alert');
  await expect(problem.getByRole('heading')).toHaveText(/unavailable|error|Catalogue/i, {
    timeout: 15_000,
  });
  await expect(page.locator(ROWS)).toHaveCount(0);
  await retryOnceTheWaitIsOver(page, faults, problem);
});

test('a page whose first page fails answers 502 with the view’s error, and its Retry works once the fault is off', async ({
  page,
  faults,
  expectConsoleErrors,
}) => {
  expectConsoleErrors(/status of 5\d\d/);
  await faults.set({ failNext: { count: 100, status: 500, endpoint: 'playlist' } });
  const response = await page.goto(`/playlist/${IDS.playlist101}?utm_source=e2e`);
  // The status says what the page holds, for a crawler or a monitor, with the wait it knows.
  expect(response?.status()).toBe(502);
  expect(Number(response?.headers()['retry-after'])).toBeGreaterThanOrEqual(1);
  // The server's HTML already shows the error, with its Retry, before any script runs.
  const html = (await response?.text()) ?? '';
  expect(html).toMatch(/<section role="alert"[^>]*>.*Catalogue error.*>Retry<\/button>/s);
  expect(html).toContain('<meta name="robots" content="noindex" />');

  const problem = page.getByRole('alert');
  await expect(problem.getByRole('heading', { name: 'Catalogue error' })).toBeVisible();
  await expect(page.locator(ROWS)).toHaveCount(0);
  await retryOnceTheWaitIsOver(page, faults, problem);
  // The address is still the one asked for: only the server's render left its parameter out.
  expect(new URL(page.url()).searchParams.get('utm_source')).toBe('e2e');
});

test('a rate-limited list says how long to wait, and Retry works once the wait is over', async ({
  page,
  faults,
  expectConsoleErrors,
}) => {
  expectConsoleErrors(/status of 429/);
  await faults.set({
    retryAfterSeconds: 3,
    failNext: { count: 100, status: 429, endpoint: 'channel-playlists' },
  });
  await page.goto(`/channel/${IDS.smallChannel}/playlists`);
  const problem = page.getByRole('alert');
  await expect(problem.getByRole('heading')).toHaveText('Too many requests');
  await expect(problem).toContainText(/Try again in [1-3] seconds?/);
  const retry = problem.getByRole('button', { name: 'Retry' });
  await expect(retry).toBeVisible();

  // After an upstream 429 the explorer holds every upstream call until its Retry-After has
  // passed (the quota guard), so the test waits that out before it ends: the countdown goes,
  // and Retry reaches the catalogue again (this channel has no playlists).
  await faults.reset();
  await expect(problem.getByRole('timer')).toHaveCount(0);
  await retry.click();
  await expect(page.getByText('This channel has no public playlists')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('a deep link shows its progress while the pages up to the item load', async ({
  page,
  faults,
}) => {
  await faults.set({ latencyMs: 60 });
  await page.goto(`/playlist/${IDS.playlist5000}?index=1234`);
  await expect(
    page.getByRole('status').filter({ hasText: 'Loading up to item 1,234' }),
  ).toBeVisible();
  await expect(page.getByRole('progressbar')).toBeVisible();
  const target = page.locator(`${ROWS}[aria-posinset="1234"]`);
  await expect(target).toBeInViewport({ timeout: 20_000 });
  await expect(target.locator('[aria-current="true"]')).toContainText('1,234');
  await expect(page.getByRole('progressbar')).toHaveCount(0);
});

test('a deep link whose page fails on the way keeps what it loaded, says so, and goes on with Retry', async ({
  page,
  faults,
  expectConsoleErrors,
}) => {
  expectConsoleErrors(/status of 5\d\d/);
  await faults.set({ latencyMs: 80 });
  await page.goto(`/playlist/${IDS.playlist5000}?index=2345`);
  // Part of the way there, every later page fails.
  await expect(page.getByRole('status')).toContainText(
    /Loading up to item 2,345: ([3-9]\d\d|1,\d{3}) of 2,345 loaded/,
    { timeout: 20_000 },
  );
  await faults.set({
    latencyMs: 80,
    failNext: { count: 1000, status: 500, endpoint: 'playlist', withContinuation: true },
  });
  const failure = page.getByRole('alert').filter({ hasText: 'Could not load more' });
  await expect(failure.getByRole('button', { name: 'Retry' })).toBeVisible({ timeout: 20_000 });
  // The rows loaded so far are the list's now, from the top.
  await expect(page.locator(`${ROWS}[aria-posinset="1"]`)).toBeVisible();
  await expect(page.locator(`${ROWS}[aria-posinset="1"]`)).toHaveAttribute('aria-setsize', '5000');

  await faults.reset();
  await expect(failure.getByRole('timer')).toHaveCount(0, { timeout: 20_000 });
  await failure.getByRole('button', { name: 'Retry' }).click();
  const target = page.locator(`${ROWS}[aria-posinset="2345"]`);
  await expect(target).toBeInViewport({ timeout: 20_000 });
  await expect(target.locator('[aria-current="true"]')).toContainText('2,345');
  await expect(page.getByRole('alert')).toHaveCount(0);
});

test('a page let go that fails to come back is read again while the reader stays', async ({
  page,
  faults,
  expectConsoleErrors,
}) => {
  test.slow(); // this server keeps no cache: the 150 pages before the item are all lookups
  expectConsoleErrors(/status of 5\d\d/);
  await page.goto(`/playlist/${IDS.playlist20000}?index=15000`);
  await expect(
    page.locator(`${ROWS}[aria-posinset="15000"]`).getByRole('link').first(),
  ).toBeVisible({ timeout: 90_000 });
  // The first pages, far above, were let go: back at the top, they fail to come back.
  await faults.set({ failNext: { count: 1000, status: 500, endpoint: 'playlist' } });
  const failed = page.waitForResponse((response) => {
    const url = new URL(response.url());
    return (
      url.searchParams.get('id') === IDS.playlist20000 &&
      !url.searchParams.has('continuation') &&
      response.status() >= 500
    );
  });
  await page.evaluate(() => window.scrollTo(0, 0));
  await failed;
  // The window has come to rest, and its rows stay placeholders while the catalogue fails.
  await page.waitForTimeout(1500);
  const first = page.locator(`${ROWS}[aria-posinset="1"]`);
  await expect(first.getByRole('link')).toHaveCount(0);
  // The catalogue heals; the reader does not move, and the rows come.
  await faults.reset();
  await expect(first.getByRole('link').first()).toBeVisible({ timeout: 30_000 });
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
});

test('a late answer never lands in another list', async ({ page, faults }) => {
  await page.goto(`/channel/${IDS.bigChannel}/playlists`);
  const playlists = page.getByRole('feed', { name: 'Playlists' });
  await expect(playlists.getByRole('article').first()).toBeVisible();
  await faults.set({ latencyMs: 1000 });
  // The videos request either arrives late or is aborted when its view goes away.
  const isVideos = (r: { url(): string }) => r.url().includes('/api/v1/channel-videos');
  const late = Promise.race([
    page.waitForResponse(isVideos),
    page.waitForEvent('requestfailed', isVideos),
  ]);
  const tabs = page.getByRole('navigation', { name: 'Channel sections' });
  await tabs.getByRole('link', { name: 'Videos' }).click();
  await tabs.getByRole('link', { name: 'Playlists' }).click();
  await expect(playlists.getByRole('article').first()).toContainText(/\d+ videos?/);
  await late;
  await expect(page.getByRole('feed', { name: 'Videos' })).toHaveCount(0);
  await expect(playlists.getByRole('article').first()).toContainText(/\d+ videos?/);
});

for (const skew of [40, -50]) {
  test(`a playlist whose stated length is off by ${skew} ends where its items end`, async ({
    page,
    faults,
  }) => {
    await faults.set({ totalItemsSkew: skew });
    await page.goto(`/playlist/${IDS.playlist101}`);
    await page.keyboard.press('End');
    await expect(page.getByText('End of playlist · 101 videos')).toBeInViewport();
    await expect(
      page.locator(`${ROWS}[aria-posinset="101"]`).getByRole('link').first(),
    ).toBeVisible();
    // No row past the real end, placeholder or not.
    expect(
      await page.evaluate(
        (selector) =>
          Math.max(
            ...[...document.querySelectorAll(selector)].map((r) =>
              Number(r.getAttribute('aria-posinset')),
            ),
          ),
        ROWS,
      ),
    ).toBe(101);
  });
}

// Following, against the same fault switches: the catalogue's `appendItems` adds items at the
// end of a followed playlist, as its owner would between two visits, and its 429s hold back a
// refresh of many lists, which then waits and goes on.

test('the items added to a followed playlist since the last visit are marked new, only those', async ({
  page,
  faults,
}) => {
  await page.goto(`/playlist/${IDS.playlist101}`);
  await page.getByRole('button', { name: 'Follow', exact: true }).click();
  await page.goto('/following');
  const card = page.getByRole('main').getByRole('listitem').filter({ hasText: 'PLAYLIST' });
  await expect(card).toContainText('Nothing new');

  await faults.set({ appendItems: { playlistId: IDS.playlist101, count: 3 } });
  await page.reload();
  await expect(card).toContainText('3 added');
  const marked = card.getByRole('listitem').filter({ has: page.getByText('New', { exact: true }) });
  await expect(marked).toHaveCount(3);
  await expect(marked).toContainText(['New video 104', 'New video 103', 'New video 102']);
  await expect(card.getByText('#101')).toBeVisible();

  // Seen once the reader has been here: the next visit has nothing new.
  await page.reload();
  await expect(card).toContainText('Nothing new');
});

test('following 500 lists: the refresh waits whenever the server says to, and reads them all', async ({
  page,
  faults,
}) => {
  test.setTimeout(60_000);
  await page.goto('/following');
  const ids = Array.from(
    { length: 500 },
    (_, i) => `UCfollowedChannel${String(i).padStart(7, '0')}`,
  );
  const csv = [
    'Channel Id,Channel Url,Channel Title',
    ...ids.map((id, i) => `${id},,Channel ${i}`),
  ];
  // The catalogue rate-limits the first lookups: the server passes the 429 and its wait on.
  await faults.set({ failNext: { count: 30, status: 429 }, retryAfterSeconds: 1 });
  await page.getByLabel('Choose a file to import').setInputFiles({
    name: 'subscriptions.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(csv.join('\n')),
  });
  await expect(page.getByText('500 lists added')).toBeVisible();
  // The view reads what it has not read yet at once, and waits when told to.
  const status = page.getByRole('main').getByRole('status').first();
  await expect(status).toContainText('paused for 1 second: the server asked this browser to wait');
  await expect(status).toHaveText(/^500 lists refreshed/, { timeout: 30_000 });
  // Every list answered in the end: these channels do not exist, which each card says.
  const cards = await everyCard(page);
  expect(cards.filter((card) => card.text.includes('Could not refresh'))).toHaveLength(500);
});
