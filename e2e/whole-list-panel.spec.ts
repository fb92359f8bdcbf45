import { readFile } from 'node:fs/promises';
import type { APIRequestContext, Page } from '@playwright/test';
import type { ChannelVideo, PlaylistItem } from '../src/shared/catalogue-schema.ts';
import { expect, expectAccessible, IDS, inViewport, listPages, ROWS, test } from './fixtures.ts';

// The "Whole list" panel on the list views: load all (its cost first, a progress bar that can be
// cancelled, what loaded stays), the exact total over the list or a shared range, find with
// jumps to the matches, sort, charts and exports. Figures are checked against the lookups'
// own pages, read here one by one.

/** Every item of a list, through the lookups the app uses. */
async function allItems<T>(request: APIRequestContext, endpoint: string, id: string): Promise<T[]> {
  const pages = await listPages<{ items: T[]; continuation: string | null }>(request, endpoint, id);
  return pages.flatMap((page) => page.items);
}

/** H:MM:SS or M:SS, as the app writes durations. */
function clock(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

const panelButton = (page: Page) => page.getByRole('button', { name: 'Whole list', exact: true });

async function openPanel(page: Page): Promise<void> {
  await panelButton(page).click();
  await expect(panelButton(page)).toHaveAttribute('aria-expanded', 'true');
}

async function loadAll(page: Page, count: number): Promise<void> {
  await page.getByRole('button', { name: 'Load all', exact: true }).click();
  await expect(page.getByText(`All ${count.toLocaleString('en')} items are loaded`)).toBeVisible();
}

test('the panel’s code loads only when it opens', async ({ page }) => {
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(r.url());
  });
  await page.goto(`/playlist/${IDS.playlist101}`);
  await expect(panelButton(page)).toHaveAttribute('aria-expanded', 'false');
  const before = scripts.length;
  await openPanel(page);
  await expect(page.getByRole('heading', { name: 'Load all' })).toBeVisible();
  expect(scripts.slice(before).some((url) => /\/assets\/panel-[\w-]+\.js$/.test(url))).toBe(true);
  expect(scripts.slice(0, before).some((url) => /\/assets\/panel-/.test(url))).toBe(false);
});

test('load all: the cost first, then progress that can be cancelled; what loaded stays', async ({
  page,
}) => {
  await page.goto(`/playlist/${IDS.playlist5000}`);
  await openPanel(page);
  await expect(
    page.getByText(/50 pages: \d+ lookups? to the catalogue|costs no lookups/),
  ).toBeVisible();
  await expect(
    page.getByText(/Quota for this window \(1 hour\): [\d,]+ of [\d,]+ lookups left/),
  ).toBeVisible();

  // A slow connection (Chromium's own throttling), so that the walk can be caught halfway.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: 400 * 1024,
    uploadThroughput: 400 * 1024,
  });
  await page.getByRole('button', { name: 'Load all', exact: true }).click();
  const progress = page.getByTestId('walk-progress');
  await expect(progress).toHaveText(/^([3-9]|\d\d) of 50 pages · [\d,]+ of 5,000 items · \d+%$/);
  await expect(page.getByRole('progressbar', { name: 'Loading the whole list' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel' }).click();
  const cancelled = page.getByText(/^Cancelled: ([\d,]+) items are loaded and stay in the list\.$/);
  await expect(cancelled).toBeVisible();
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  const loaded = Number((await cancelled.textContent())!.match(/[\d,]+/)![0].replaceAll(',', ''));
  expect(loaded).toBeGreaterThan(100);
  expect(loaded).toBeLessThan(5000);
  // What loaded is in the list: a row deep in it shows its video.
  const deep = Math.min(loaded - 50, 250);
  await page.evaluate(
    ([selector, n]) => {
      const list = document.querySelector(selector)!.closest('[role="feed"]')!;
      window.scrollTo(0, list.getBoundingClientRect().top + window.scrollY + (n - 1) * 112);
    },
    [ROWS, deep] as const,
  );
  await expect(
    page.locator(`${ROWS}[aria-posinset="${deep}"]`).getByRole('link').first(),
  ).toBeVisible();

  // The rest, then: the whole list is in, and its last row is there at once.
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.getByRole('button', { name: 'Load the rest' }).click();
  await expect(page.getByText('All 5,000 items are loaded')).toBeVisible();
  const lookups: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/v1/')) lookups.push(r.url());
  });
  await page.keyboard.press('End');
  await expect(
    page.locator(`${ROWS}[aria-posinset="5000"]`).getByRole('link').first(),
  ).toBeVisible();
  expect(lookups.filter((url) => url.includes(IDS.playlist5000))).toEqual([]);
});

test('a shared range opens the panel with its exact total, and the range can change', async ({
  page,
  request,
}) => {
  const items = await allItems<PlaylistItem>(request, 'playlist', IDS.playlist101);
  const sum = (from: number, to: number) =>
    items
      .filter((i) => i.index >= from && i.index <= to)
      .reduce((total, i) => total + (i.duration ?? 0), 0);

  await page.goto(`/playlist/${IDS.playlist101}?from=20&to=60`);
  await expect(panelButton(page)).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByText('Items 20 to 60 · 41 videos')).toBeVisible();
  await expect(page.getByTestId('total-duration')).toHaveText(clock(sum(20, 60)));
  await expect(page.getByTestId('at-2')).toHaveText(clock(Math.round(sum(20, 60) / 2)));
  await expect(page.getByTestId('at-1.5')).toHaveText(clock(Math.round(sum(20, 60) / 1.5)));
  await expect(page.getByLabel('From item')).toHaveValue('20');
  await expectAccessible(page);

  await page.getByLabel('From item').fill('1');
  await page.getByLabel('To item').fill('10');
  await page.getByRole('button', { name: 'Total of range' }).click();
  await expect(page.getByTestId('total-duration')).toHaveText(clock(sum(1, 10)));
  await expect(page).toHaveURL(/[?&]from=1&to=10$/);

  await page.getByRole('button', { name: 'Clear range' }).click();
  await expect(page.getByText('The whole list · 101 videos of 101 stated')).toBeVisible();
  await expect(page.getByTestId('total-duration')).toHaveText(clock(sum(1, 101)));
  expect(new URL(page.url()).search).toBe('');
});

test('find as you type: the count, and each match opens at its place in the list', async ({
  page,
  request,
}) => {
  const items = await allItems<PlaylistItem>(request, 'playlist', IDS.playlist101);
  const query = items[76]!.title.split(' ').slice(0, 2).join(' ');
  const matching = items.filter((i) =>
    `${i.title}\n${i.channelTitle}`.toLowerCase().includes(query.toLowerCase()),
  );

  await page.goto(`/playlist/${IDS.playlist101}`);
  await openPanel(page);
  await loadAll(page, 101);
  const find = page.getByRole('searchbox', { name: 'Find in titles and channels' });
  await find.pressSequentially(query, { delay: 10 });
  const count = page.getByTestId('find-count');
  await expect(count).toHaveText(
    `${matching.length} ${matching.length === 1 ? 'match' : 'matches'}`,
  );
  await expect(page).toHaveURL(new RegExp(`[?&]q=`));

  await find.press('Enter');
  await expect(count).toHaveText(`1 of ${matching.length}`);
  const first = page.locator(`${ROWS}[aria-posinset="${matching[0]!.index}"]`);
  await expect(first.locator('[aria-current="true"]')).toBeVisible();
  expect(await inViewport(first)).toBe(true);
  await expect(page).toHaveURL(new RegExp(`[?&]index=${matching[0]!.index}(&|$)`));

  if (matching.length > 1) {
    await page.getByRole('button', { name: 'Next match' }).click();
    await expect(count).toHaveText(`2 of ${matching.length}`);
    const second = page.locator(`${ROWS}[aria-posinset="${matching[1]!.index}"]`);
    await expect(second.locator('[aria-current="true"]')).toBeVisible();
  }
  // Previous from the first goes round to the last.
  await page.getByRole('button', { name: 'Previous match' }).click();
  await page.getByRole('button', { name: 'Previous match' }).click();
  await expect(count).toHaveText(`${matching.length} of ${matching.length}`);

  await find.fill('no title holds this text');
  await expect(count).toHaveText('No matches');
});

test('sort needs the whole list: offered first, then applied; the order is in the address', async ({
  page,
  request,
}) => {
  const items = await allItems<PlaylistItem>(request, 'playlist', IDS.playlist101);
  const longest = items
    .map((item, at) => ({ item, at }))
    .sort((a, b) => (b.item.duration ?? -1) - (a.item.duration ?? -1) || a.at - b.at)
    .map(({ item }) => item);

  await page.goto(`/playlist/${IDS.playlist101}?sort=longest`);
  await expect(page.getByText('Sorted longest first once the whole list is loaded.')).toBeVisible();
  await page.getByRole('button', { name: 'Load all to sort' }).click();
  await expect(page.getByText('All 101 items are loaded')).toBeVisible();
  const list = page.getByRole('feed', { name: /^Videos in / });
  // Row 1 shows the longest video, with its own number in the playlist.
  for (const at of [0, 1, 2]) {
    const row = list.locator(`${ROWS}[aria-posinset="${at + 1}"]`);
    await expect(row.getByRole('link').first()).toContainText(longest[at]!.title);
    await expect(row).toContainText(String(longest[at]!.index));
  }
  await expect(page).toHaveURL(/[?&]sort=longest$/);
});

test('sort a channel’s videos: newest as given, oldest, most viewed', async ({ page, request }) => {
  const videos = await allItems<ChannelVideo>(request, 'channel-videos', IDS.smallChannel);
  const mostViewed = [...videos].sort((a, b) => b.viewCount - a.viewCount)[0]!;
  await page.goto(`/channel/${IDS.smallChannel}`);
  await openPanel(page);
  const first = page
    .getByRole('feed', { name: 'Videos' })
    .locator(`${ROWS}[aria-posinset="1"]`)
    .getByRole('link');
  await expect(first).toContainText(videos[0]!.title);
  await page.getByRole('combobox', { name: 'Sort' }).selectOption({ label: 'Most viewed' });
  await expect(page).toHaveURL(/[?&]sort=views$/);
  await expect(first).toContainText(mostViewed.title);
  await page.getByRole('combobox', { name: 'Sort' }).selectOption({ label: 'Oldest first' });
  await expect(page).toHaveURL(/[?&]sort=oldest$/);
  await expect(first).toContainText(videos.at(-1)!.title);
  await expectAccessible(page);
});

test('charts of durations and views, with their numbers for screen readers', async ({ page }) => {
  await page.goto(`/playlist/${IDS.playlist101}`);
  await openPanel(page);
  await loadAll(page, 101);
  const charts = page.getByTestId('charts');
  for (const name of ['Durations', 'Views (log scale)']) {
    const figure = charts.getByRole('figure', { name: new RegExp(name.replace(/[()]/g, '\\$&')) });
    await expect(figure).toBeVisible();
    await expect(figure.locator('svg rect').first()).toBeVisible();
    await expect(figure).toContainText('All 101 items');
    // The table a screen reader reads: every item in one of its rows.
    const counts = await figure.locator('table tbody td').allTextContents();
    expect(counts.reduce((sum, n) => sum + Number(n), 0)).toBeLessThanOrEqual(101);
    expect(counts.reduce((sum, n) => sum + Number(n), 0)).toBeGreaterThan(90);
  }
  await expectAccessible(page);
});

test('the charts follow the dark theme', async ({ page }) => {
  const fills: string[] = [];
  await page.goto(`/channel/${IDS.smallChannel}?sort=views`);
  const bar = page.getByTestId('charts').locator('svg rect').first();
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    await expect(bar).toBeVisible();
    fills.push(await bar.evaluate((rect) => getComputedStyle(rect).fill));
  }
  expect(fills[0]).not.toBe(fills[1]);
  await expectAccessible(page);
});

test('exports download the whole list as CSV, JSON and text', async ({ page }) => {
  await page.goto(`/playlist/${IDS.playlist101}`);
  await openPanel(page);
  const download = async (label: string) => {
    const [file] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: `Download ${label}` }).click(),
    ]);
    return { name: file.suggestedFilename(), text: await readFile(await file.path(), 'utf8') };
  };
  const csv = await download('CSV');
  expect(csv.name).toMatch(/\.csv$/);
  // With the byte order mark the app's link asks for: Excel reads the file as UTF-8.
  expect(csv.text.startsWith('\uFEFFindex,id,title,channelId,channelTitle,duration,')).toBe(true);
  expect(csv.text.trimEnd().split(/\r?\n/).length).toBeGreaterThanOrEqual(102);

  const json = await download('JSON');
  expect(json.name).toMatch(/\.json$/);
  const parsed = JSON.parse(json.text) as Array<{ index: number; itemUrl: string }>;
  expect(parsed).toHaveLength(101);
  expect(parsed[0]!.index).toBe(1);

  const txt = await download('Text');
  expect(txt.name).toMatch(/\.txt$/);
  const lines = txt.text.trimEnd().split(/\r?\n/);
  expect(lines).toHaveLength(101);
  expect(lines[0]).toMatch(/^https:\/\//);
});

test('on a phone: the panel fits the width and passes the accessibility checks', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/channel/${IDS.smallChannel}?q=the`);
  await expect(page.getByRole('searchbox', { name: 'Find in titles' })).toHaveValue('the');
  await expect(page.getByTestId('summary')).toBeVisible();
  await expect(page.getByTestId('charts')).toBeVisible();
  // Nothing wider than the window. (Below zero when the page keeps its scrollbar's room and
  // the browser draws no scrollbar there, as headless Chromium here.)
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
  await expectAccessible(page);
});

test('the panel’s choices join the top item in the address, in place, and back returns to the same view', async ({
  page,
}) => {
  await page.goto(`/playlist/${IDS.playlist101}`);
  await openPanel(page);
  await loadAll(page, 101);
  const entries = await page.evaluate(() => history.length);
  await page.mouse.wheel(0, 112 * 30);
  await expect(page).toHaveURL(/[?&]index=\d+$/);
  const index = new URL(page.url()).searchParams.get('index');
  const y = await page.evaluate(() => window.scrollY);

  // The query is written beside the top item, and the view stays as it was (not drawn anew,
  // which would start it at the top).
  const find = page.getByRole('searchbox', { name: 'Find in titles and channels' });
  await find.pressSequentially('a');
  await expect(page).toHaveURL(new RegExp(`\\?index=${index}&q=a$`));
  expect(await page.evaluate(() => window.scrollY)).toBe(y);
  expect(await page.evaluate(() => history.length)).toBe(entries);

  // Away and back: the same entry, at the same place, with the panel as the address has it.
  const middle = await page.evaluate(
    (selector) =>
      [...document.querySelectorAll(selector)]
        .find((row) => row.getBoundingClientRect().top > window.innerHeight / 2)
        ?.getAttribute('aria-posinset'),
    ROWS,
  );
  // The row's second link is its channel's, in the app.
  await page.locator(`${ROWS}[aria-posinset="${middle}"]`).getByRole('link').nth(1).click();
  await expect(page).toHaveURL(/\/channel\/UC[\w-]+$/);
  await page.goBack();
  await expect(page).toHaveURL(new RegExp(`\\?index=${index}&q=a$`));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(y);
  await expect(find).toHaveValue('a');
});

test('a synchronous export refused for its length points to the job that can make it', async ({
  page,
  expectConsoleErrors,
}) => {
  // The refusal's status, as the browser logs a failed request.
  expectConsoleErrors(/409/);
  // A thousand pages read before the refusal, on a machine busy with the other journeys.
  test.setTimeout(60_000);
  await page.goto(`/channel/${IDS.hugeChannel}`);
  await openPanel(page);
  await page.getByRole('link', { name: 'Download Text' }).click();
  await expect(page.getByText('Reading the whole list for the file…')).toBeVisible();
  // 10,000 pages are more than an answer reads before its first byte: refused, nothing sent.
  const refusal = page.getByRole('alert').filter({ hasText: 'The file could not be made now.' });
  await expect(refusal).toHaveText(
    /The list is too long to read whole before the file begins\.Make it as a job$/,
    { timeout: 30_000 },
  );
  await refusal.getByRole('button', { name: 'Make it as a job' }).click();
  const card = page.getByTestId('job');
  await expect(card.getByRole('heading', { name: 'Export (text)' })).toBeVisible();
  await expect.poll(async () => Number(await card.getAttribute('data-items'))).toBeGreaterThan(0);
  await card.getByRole('button', { name: 'Cancel' }).click();
  await expect(card).toHaveAttribute('data-job-state', 'cancelled');
  await expect(card.getByText('Cancelled')).toBeVisible();
});
