import { randomInt } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { parse } from 'csv-parse/sync';
import type { Locator, Page } from '@playwright/test';
import { expect, IDS, test } from './fixtures.ts';

// Whole-list jobs in the app (docs/jobs.md, "In the app"), against a server whose quota window
// is two seconds (playwright.config.ts): started from the Whole list panel, followed across a
// reload, another page and back, waiting for quota and going on, told when it ends (the title, a
// notification), and downloaded whole; a summary's total shown from its result; a job the server
// no longer has. Every wait is on what the page shows, never on time.

/** Each journey is a client of its own: the server gives a client's same request the same job. */
async function asNewClient(page: Page): Promise<void> {
  const address = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
  await page.context().setExtraHTTPHeaders({ 'X-Forwarded-For': address });
}

const panelButton = (page: Page) => page.getByRole('button', { name: 'Whole list', exact: true });

async function openPanel(page: Page): Promise<void> {
  await panelButton(page).click();
  await expect(panelButton(page)).toHaveAttribute('aria-expanded', 'true');
}

/** The items a job's card says it has read (its `data-items`). */
const itemsOf = async (card: Locator) => Number(await card.getAttribute('data-items'));

test('a summary and a CSV export as jobs: the total from the result, every row in the file', async ({
  page,
}) => {
  // 334 pages at the jobs' 24 lookups a two-second window: about half a minute.
  test.setTimeout(90_000);
  await asNewClient(page);
  await page.goto(`/channel/${IDS.bigChannel}`);
  await openPanel(page);
  // A channel states no length: the panel offers its work as jobs, beside the answers now (a
  // list already whole in the browser is not offered any).
  await expect(page.getByText(/^A channel states no length/)).toBeVisible();
  await page.getByRole('button', { name: 'Summary as a job' }).click();
  const cards = page.getByTestId('job');
  const summary = cards.filter({ hasText: 'Summary' });
  await expect(summary).toHaveAttribute('data-job-state', 'done', { timeout: 60_000 });
  // The total, from the job's result, as the synchronous total shows it.
  const synchronous = page.getByTestId('summary').last();
  await expect(summary.getByTestId('total-duration')).toBeVisible();
  const fromJob = await summary.getByTestId('total-duration').textContent();
  await page.getByRole('button', { name: 'Add up the whole list' }).click();
  await expect(synchronous.getByTestId('total-duration')).toHaveText(fromJob!);

  await page.getByRole('button', { name: 'CSV as a job' }).click();
  const csv = cards.filter({ hasText: 'Export (CSV)' });
  await expect(csv).toHaveAttribute('data-job-state', 'done', { timeout: 60_000 });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    csv.getByRole('link', { name: /^Download/ }).click(),
  ]);
  const rows = parse(await readFile(await download.path()), { bom: true, columns: true }) as {
    id: string;
  }[];
  expect(rows).toHaveLength(await itemsOf(csv));
  expect(rows).toHaveLength(10_000);
  expect(new Set(rows.map((row) => row.id)).size).toBe(10_000);
  // That the file is the list exactly, in its order, is the integration tests' (jobs/).
});

test('a job on the 20,000-item playlist: followed across a reload and another page, waiting for quota, told when done, downloaded whole', async ({
  page,
}) => {
  // 200 pages at the pace of a two-second window (playwright.config.ts): about 17 s. The
  // 300,000-video channel's job is the integration test's (huge-list-jobs.alone.test.ts).
  test.setTimeout(120_000);
  await asNewClient(page);
  await page.context().grantPermissions(['notifications']);
  // The notifications the page sends, as it sends them.
  await page.addInitScript(() => {
    const sent: string[] = [];
    (window as unknown as { sentNotifications: string[] }).sentNotifications = sent;
    const Native = window.Notification;
    window.Notification = class extends Native {
      constructor(title: string, options?: NotificationOptions) {
        sent.push(title);
        super(title, options);
      }
    } as typeof Notification;
  });

  await page.goto(`/playlist/${IDS.playlist20000}`);
  await openPanel(page);
  await page.getByRole('button', { name: 'Text as a job' }).click();
  const card = page.getByTestId('job');
  await expect(card).toHaveCount(1);
  await expect.poll(() => itemsOf(card)).toBeGreaterThan(0);
  await card.getByRole('button', { name: 'Notify me when done' }).click();
  await expect(card.getByText('A notification will say when it ends.')).toBeVisible();

  // A reload: the browser kept the job, so the panel opens by itself with its card, and the job
  // went on meanwhile.
  const beforeReload = await itemsOf(card);
  await page.reload();
  await expect(panelButton(page)).toHaveAttribute('aria-expanded', 'true');
  await expect.poll(() => itemsOf(card)).toBeGreaterThan(beforeReload);
  await expect(card.getByTestId('job-progress')).toHaveText(
    /^[\d,]+ of 20,000 items · \d+% · [\d,]+ lookups spent$/,
  );

  // It spends the window's part for jobs, then waits for room, saying until when.
  await expect(card).toHaveAttribute('data-job-state', 'waiting', { timeout: 60_000 });
  await expect(card.getByText(/^Waiting for quota until \d{1,2}:\d{2}\s[AP]M$/)).toBeVisible();
  const waited = await itemsOf(card);
  await expect.poll(() => itemsOf(card), { timeout: 60_000 }).toBeGreaterThan(waited);

  // Another page and back: the jobs view shows it too, and the list's panel again.
  await page.getByRole('link', { name: 'Jobs', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Jobs in this browser' })).toBeVisible();
  const listed = page.getByTestId('job');
  await expect(listed.getByRole('link', { name: 'The archive’s first 20,000' })).toBeVisible();
  const onJobsView = await itemsOf(listed);
  await expect.poll(() => itemsOf(listed)).toBeGreaterThan(onJobsView);
  await page.goBack();
  await expect(panelButton(page)).toHaveAttribute('aria-expanded', 'true');
  await expect.poll(() => itemsOf(card)).toBeGreaterThan(onJobsView);

  // Done: the title says so until the reader is back, and the notification they asked for.
  await expect(card).toHaveAttribute('data-job-state', 'done', { timeout: 150_000 });
  await expect(page).toHaveTitle(/^✓ Export \(text\) done — /);
  expect(
    await page.evaluate(
      () => (window as unknown as { sentNotifications: string[] }).sentNotifications,
    ),
  ).toEqual(['Export (text) done']);
  await expect(card.getByTestId('job-progress')).toHaveText(/^20,000 items · /);

  // The file: one link a line, every item the job read.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    card.getByRole('link', { name: /^Download \([\d.]+ MB\)$/ }).click(),
  ]);
  await expect(page).not.toHaveTitle(/^✓/);
  const lines = (await readFile(await download.path(), 'utf8')).split('\n').filter(Boolean);
  expect(lines).toHaveLength(await itemsOf(card));
  expect(lines).toHaveLength(20_000);
  expect(new Set(lines).size).toBe(20_000);
  expect(lines[0]).toMatch(
    new RegExp(`^https://www\\.youtube\\.com/watch\\?v=[\\w-]{11}&list=${IDS.playlist20000}`),
  );
});

test('a job the server no longer has is shown as gone, and can be removed', async ({
  page,
  expectConsoleErrors,
}) => {
  expectConsoleErrors(/404/);
  await page.goto('/jobs');
  await expect(page.getByText(/^No jobs yet\./)).toBeVisible();
  await page.evaluate(() =>
    localStorage.setItem(
      'catalogue-explorer.jobs',
      JSON.stringify({
        version: 1,
        jobs: [
          {
            id: 'AAAAAAAAAAAAAAAAAAAAAA',
            request: {
              list: 'playlist',
              id: 'PLcatalogueDemoPlaylist5000items00',
              kind: 'summary',
            },
            title: 'Every talk',
            createdAt: Date.now(),
            ended: null,
            notify: false,
          },
        ],
      }),
    ),
  );
  await page.reload();
  const card = page.getByTestId('job');
  await expect(card).toHaveAttribute('data-job-state', 'gone');
  await expect(card.getByText(/^The server no longer has this job/)).toBeVisible();
  await card.getByRole('button', { name: 'Remove from the list' }).click();
  await expect(page.getByText(/^No jobs yet\./)).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('catalogue-explorer.jobs'))).toBe(
    '{"version":1,"jobs":[]}',
  );
});
