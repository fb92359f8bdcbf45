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
