import { expect, test } from './fixtures.ts';

test('an unknown address shows a not-found page with a way home', async ({
  page,
  expectConsoleErrors,
}) => {
  // The server answers 404 for paths that are not views, and the browser logs that.
  expectConsoleErrors(/status of 404/);
  await page.goto('/this/is/not/a/page');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
  await expect(page).toHaveTitle('Page not found · Catalogue Explorer');
  // Axe on this page is first-view.spec's, on a desktop and a phone.
  await page.getByRole('link', { name: 'Go to the home page' }).click();
  await expect(page).toHaveURL('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Explore playlists and channels',
  );
});
