import type { Page } from '@playwright/test';
import { expect, expectAccessible, IDS, test } from './fixtures.ts';

// Following lists with no account: the follow list lives in the browser (it survives a
// reload), the Following view reads every followed list's feed, and the list goes out to and
// comes back from files (OPML, JSON, the platform's subscriptions.csv, NewPipe's JSON).

const cardOf = (page: Page, title: string | RegExp) =>
  page
    .getByRole('main')
    .getByRole('listitem')
    .filter({ has: page.getByRole('link', { name: title }) });

async function follow(page: Page, path: string) {
  await page.goto(path);
  await page.getByRole('button', { name: 'Follow', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Following', exact: true })).toBeVisible();
}

async function importFile(page: Page, name: string, body: string) {
  await page.getByLabel('Choose a file to import').setInputFiles({
    name,
    mimeType: 'text/plain',
    buffer: Buffer.from(body),
  });
}

test('follow a playlist and a channel, reload, and find both in Following', async ({ page }) => {
  await follow(page, `/playlist/${IDS.playlist101}`);
  await follow(page, `/channel/${IDS.smallChannel}`);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Following', exact: true })).toBeVisible();
  await page.getByRole('banner').getByRole('link', { name: 'Following' }).click();
  await expect(page).toHaveURL('/following');
  await expect(page.getByRole('heading', { level: 1, name: 'Following' })).toBeVisible();
  const playlist = cardOf(page, 'Field recordings 🎧');
  const channel = cardOf(page, 'Tiny Workshop');
  await expect(playlist).toContainText('Nothing new');
  await expect(channel).toContainText('Nothing new');
  // A playlist shows its end, the last added first.
  await expect(playlist.getByText('#101')).toBeVisible();
  await expectAccessible(page);
  // Stop following: gone from the view and from the list's own page.
  await channel.getByRole('button', { name: /^Stop following/ }).click();
  await expect(channel).toHaveCount(0);
  await page.goto(`/channel/${IDS.smallChannel}`);
  await expect(page.getByRole('button', { name: 'Follow', exact: true })).toBeVisible();
});

test('imports a subscriptions CSV of 50 channels and a NewPipe file; a bad file changes nothing', async ({
  page,
  expectConsoleErrors,
}) => {
  // Made-up channels the catalogue does not have: their feeds answer 404, which the view says.
  expectConsoleErrors(/status of 404/);
  await page.goto('/following');
  await expect(page.getByText('You follow nothing yet')).toBeVisible();
  const ids = Array.from(
    { length: 50 },
    (_, i) => `UCimportedChannel${String(i).padStart(7, '0')}`,
  );
  const csv = [
    'Channel Id,Channel Url,Channel Title',
    ...ids.map((id, i) => `${id},http://www.youtube.com/channel/${id},"Channel ${i}, imported"`),
  ].join('\n');
  await importFile(page, 'subscriptions.csv', csv);
  await expect(page.getByRole('status').filter({ hasText: '50 lists added' })).toBeVisible();
  await expect(
    page.getByRole('main').getByRole('listitem').filter({ hasText: 'CHANNEL' }),
  ).toHaveCount(50);

  const newpipe = JSON.stringify({
    app_version: '0.27.6',
    app_version_int: 1003,
    subscriptions: [
      {
        service_id: 0,
        url: `https://www.youtube.com/channel/${IDS.smallChannel}`,
        name: 'Tiny Workshop',
      },
      { service_id: 0, url: `https://www.youtube.com/channel/${ids[0]}`, name: 'Channel 0' },
    ],
  });
  await importFile(page, 'subscriptions.json', newpipe);
  await expect(page.getByText('1 list added, 1 already followed.')).toBeVisible();

  const bad = `Channel Id,Channel Url,Channel Title\n${IDS.bigChannel},,A\nnot a channel,,B\n`;
  await importFile(page, 'broken.csv', bad);
  await expect(page.getByRole('alert')).toContainText('line 3');
  await expect(cardOf(page, 'Catalogue Demo Studios')).toHaveCount(0);
  await page.reload();
  await expect(
    page.getByRole('main').getByRole('listitem').filter({ hasText: 'CHANNEL' }),
  ).toHaveCount(51);
});

test('exports OPML and imports it into a clean profile: the same list', async ({
  page,
  browser,
}) => {
  await follow(page, `/playlist/${IDS.playlist101}`);
  await follow(page, `/channel/${IDS.bigChannel}`);
  await page.goto('/following');
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download OPML' }).click();
  const file = await (await download).path();
  const { readFile } = await import('node:fs/promises');
  const opml = await readFile(file, 'utf8');
  expect(opml).toContain(`/feeds/playlist/${IDS.playlist101}.atom`);

  const clean = await browser.newContext({ baseURL: new URL(page.url()).origin });
  try {
    const other = await clean.newPage();
    await other.goto('/following');
    await expect(other.getByText('You follow nothing yet')).toBeVisible();
    await importFile(other, 'following.opml', opml);
    await expect(other.getByText('2 lists added, 0 already followed.')).toBeVisible();
    const read = (p: Page) =>
      p.evaluate(() =>
        (
          JSON.parse(localStorage.getItem('catalogue-explorer.following')!) as {
            lists: Array<{ kind: string; id: string; title: string }>;
          }
        ).lists.map(({ kind, id, title }) => ({ kind, id, title })),
      );
    expect(await read(other)).toEqual(await read(page));
  } finally {
    await clean.close();
  }
});
