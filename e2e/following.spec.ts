import type { Page } from '@playwright/test';
import { generateDemoCatalogue } from '../src/catalogue/demo-data.ts';
import { FOLLOW_STORE_KEY, FOLLOW_STORE_VERSION } from '../src/app/following/follow-store.ts';
import { everyCard, followedCount } from './following-cards.ts';
import { cleanProfile, expect, expectAccessible, IDS, test } from './fixtures.ts';

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
  expect(await followedCount(page)).toBe(50);

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
  expect(await followedCount(page)).toBe(51);
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

  const clean = await cleanProfile(browser, new URL(page.url()).origin);
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

/** Channels of the demo catalogue with videos: what a real subscriptions file names. */
const demoChannels = (count: number) => generateDemoCatalogue().channels.slice(2, 2 + count);

const readStore = (page: Page) =>
  page.evaluate((key) => localStorage.getItem(key), FOLLOW_STORE_KEY);

test('imports a Takeout CSV with a German header while the view is open: every list shows its items, with no click', async ({
  page,
}) => {
  test.setTimeout(60_000);
  await page.goto('/following');
  const channels = demoChannels(50);
  // Takeout writes the header in the account's language.
  const csv = [
    'Kanal-ID,Kanal-URL,Kanaltitel',
    ...channels.map((c) => `${c.id},http://www.youtube.com/channel/${c.id},${c.title}`),
  ].join('\n');
  await importFile(page, 'Abos.csv', csv);
  await expect(page.getByRole('status').filter({ hasText: '50 lists added' })).toBeVisible();
  await expect(page.getByRole('status').filter({ hasText: /^50 lists refreshed/ })).toBeVisible({
    timeout: 30_000,
  });
  const cards = await everyCard(page);
  expect(cards.map((card) => card.text.split('\n')[1])).toEqual(channels.map((c) => c.title));
  for (const card of cards) {
    expect(card.text, card.text).not.toContain('Loading');
    expect(card.entries.length, card.text).toBeGreaterThan(0);
  }
});

test('a list followed in another tab appears here with its items, with no click', async ({
  page,
  context,
}) => {
  await page.goto('/following');
  await expect(page.getByText('You follow nothing yet')).toBeVisible();
  const other = await context.newPage();
  await follow(other, `/playlist/${IDS.playlist101}`);
  const card = cardOf(page, 'Field recordings 🎧');
  await expect(card.getByText('#101')).toBeVisible();
  await expect(card).not.toContainText('Loading');
});

test('an OPML file from a feed reader: its 10 lists are added and its 3 blogs named as skipped', async ({
  page,
}) => {
  await page.goto('/following');
  const channels = demoChannels(10);
  const opml = `<?xml version="1.0" encoding="UTF-8"?>
<opml version="2.0"><head><title>Feeds</title></head><body>
  <outline text="Blogs">
    <outline text="Slow Cooking" type="rss" xmlUrl="https://slowcooking.example/feed" htmlUrl="https://slowcooking.example/"/>
    <outline text="Compiler notes" type="rss" xmlUrl="https://compilers.example/atom.xml"/>
    <outline text="Garden diary" type="rss" xmlUrl="https://garden.example/rss"/>
  </outline>
  <outline text="Videos">
${channels.map((c) => `    <outline text="${c.title}" type="rss" xmlUrl="https://www.youtube.com/feeds/videos.xml?channel_id=${c.id}"/>`).join('\n')}
  </outline>
</body></opml>`;
  await importFile(page, 'feeds.opml', opml);
  const message = page.getByRole('status').filter({ hasText: '10 lists added' });
  await expect(message).toContainText(
    '3 entries were skipped, not a playlist or channel of this platform: “Slow Cooking”, “Compiler notes”, “Garden diary”.',
  );
  expect(await followedCount(page)).toBe(10);
});

test('with storage full, a follow says it was not saved, and is not shown as made', async ({
  page,
}) => {
  await page.goto(`/playlist/${IDS.playlist101}`);
  // Fills this origin's storage to the last character it takes.
  await page.evaluate(() => {
    let n = 0;
    for (let size = 1 << 20; size >= 1;) {
      try {
        localStorage.setItem(`filler-${n++}`, 'x'.repeat(size));
      } catch {
        size = Math.floor(size / 2);
      }
    }
  });
  await page.getByRole('button', { name: 'Follow', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText(
    'Not saved: this browser’s storage for the explorer is full.',
  );
  await expect(page.getByRole('button', { name: 'Follow', exact: true })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('button', { name: 'Follow', exact: true })).toBeVisible();
  expect(await readStore(page)).toBeNull();
});

test('a damaged entry is skipped and said, and a follow keeps it and everything else', async ({
  page,
}) => {
  await page.goto('/following');
  const good = {
    kind: 'playlist',
    id: IDS.playlist101,
    title: 'Field recordings 🎧',
    followedAt: 1,
    seen: null,
  };
  const damaged = { kind: 'playlist', id: 42, note: 'written by hand' };
  await page.evaluate(
    ([key, text]) => localStorage.setItem(key!, text!),
    [FOLLOW_STORE_KEY, JSON.stringify({ version: FOLLOW_STORE_VERSION, lists: [good, damaged] })],
  );
  await page.reload();
  await expect(page.getByText('1 followed list could not be read')).toBeVisible();
  await expect(cardOf(page, 'Field recordings 🎧').getByText('#101')).toBeVisible();
  await follow(page, `/channel/${IDS.smallChannel}`);
  const stored = JSON.parse((await readStore(page))!) as { lists: unknown[] };
  expect(stored.lists).toContainEqual(damaged);
  expect(stored.lists.map((l) => (l as { id: unknown }).id)).toEqual(
    expect.arrayContaining([IDS.playlist101, IDS.smallChannel, 42]),
  );
});

test('a store written by a newer version is shown, and survives a follow untouched', async ({
  page,
}) => {
  await page.goto('/following');
  const newer = JSON.stringify({
    version: FOLLOW_STORE_VERSION + 1,
    lists: [
      {
        kind: 'playlist',
        id: IDS.playlist101,
        title: 'Field recordings 🎧',
        followedAt: 1,
        seen: null,
        folder: 'Music',
      },
    ],
    folders: ['Music'],
  });
  await page.evaluate(
    ([key, text]) => localStorage.setItem(key!, text!),
    [FOLLOW_STORE_KEY, newer],
  );
  await page.reload();
  await expect(page.getByText('saved by a newer version of the explorer')).toBeVisible();
  await expect(cardOf(page, 'Field recordings 🎧').getByText('#101')).toBeVisible();
  await page.goto(`/channel/${IDS.smallChannel}`);
  await page.getByRole('button', { name: 'Follow', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText(
    'Not saved: your follow list was written by a newer version of the explorer',
  );
  expect(await readStore(page)).toBe(newer);
});
