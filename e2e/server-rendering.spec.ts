import { expect, IDS, ROWS, test } from './fixtures.ts';

// Every app URL arrives rendered: the header and the first rows (three tall screens' worth, 40)
// are in the HTML, readable and with working links before any script runs (or with none). That
// the app then hydrates that very markup, keeping its DOM nodes, is first-view.spec.ts's, for
// every view on a desktop and a phone.

const FIRST_ROW = `${ROWS}[aria-posinset="1"]`;

test('a playlist’s header and first rows are in the HTML itself', async ({ request }) => {
  const response = await request.get(`/playlist/${IDS.playlist5000}`);
  expect(response.status()).toBe(200);
  const html = await response.text();
  expect(html.match(/<article [^>]*aria-posinset="\d+"/g)).toHaveLength(40);
  // The title, isolated from the page's direction (a title's own may differ).
  expect(html).toMatch(/<h1[^>]*><bdi>[^<]+<\/bdi><\/h1>/);
  // The query cache the view was rendered from, for the client to start with.
  expect(html).toContain('<script type="application/json" id="app-state">');
});

test.describe('with JavaScript disabled', () => {
  test.use({ javaScriptEnabled: false });

  test('a playlist can be read and its links followed to a channel and its playlists', async ({
    page,
  }) => {
    await page.goto(`/playlist/${IDS.playlist5000}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.locator(ROWS)).toHaveCount(40);
    await expect(page.locator(FIRST_ROW)).toBeInViewport();
    await expect(page.locator(`${ROWS}[aria-posinset="40"]`)).toContainText(/\S/);

    // The playlist's channel, rendered by the server as well.
    await page
      .getByRole('main')
      .getByRole('link', { name: 'Catalogue Demo Studios' })
      .first()
      .click();
    await expect(page).toHaveURL(/\/channel\/UC/);
    await expect(page.locator(FIRST_ROW)).toBeVisible();

    await page.getByRole('link', { name: 'Playlists' }).click();
    await expect(page).toHaveURL(/\/playlists$/);
    await page.locator(FIRST_ROW).getByRole('link').first().click();
    await expect(page).toHaveURL(/\/playlist\/PL/);
    await expect(page.locator(FIRST_ROW)).toBeVisible();
  });
});
