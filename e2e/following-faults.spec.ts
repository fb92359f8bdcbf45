import { expect, IDS, test } from './fixtures.ts';

// Run against the fault server (playwright.config.ts): the catalogue's `appendItems` switch
// adds items at the end of a followed playlist, as its owner would between two visits, and
// Following marks exactly those as new.

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
  const cards = page.getByRole('main').getByRole('listitem').filter({ hasText: 'CHANNEL' });
  await expect(cards).toHaveCount(500);
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(
    page.getByText(/^Paused for 1 second: the server asked this browser to wait\./),
  ).toBeVisible();
  // Every list answered in the end: these channels do not exist, which each card says.
  await expect(cards.filter({ hasText: 'Could not refresh' })).toHaveCount(500, {
    timeout: 30_000,
  });
  await expect(page.getByText('Loading…')).toHaveCount(0);
});
