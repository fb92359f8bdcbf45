import type { Page } from '@playwright/test';
import { expect, IDS, ROWS, test } from './fixtures.ts';

// Every app URL arrives rendered: the header and the first rows (three tall screens' worth, 40)
// are in the HTML, readable and with working links before any script runs (or with none), and
// the app then hydrates that very markup, keeping its DOM nodes, with no hydration error.

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

/** Marks the first server-rendered element matching `selector` as it is parsed, before any script. */
async function markServerElement(page: Page, selector: string): Promise<void> {
  await page.addInitScript((wanted) => {
    const observer = new MutationObserver(() => {
      const element = document.querySelector(wanted);
      if (!element) return;
      (element as Element & { fromServer?: boolean }).fromServer = true;
      observer.disconnect();
    });
    observer.observe(document, { childList: true, subtree: true });
  }, selector);
}

const VIEWS = [
  { name: 'home', path: '/', selector: 'h1' },
  { name: 'a playlist', path: `/playlist/${IDS.playlist5000}`, selector: FIRST_ROW },
  { name: 'a deep link', path: `/playlist/${IDS.playlist5000}?index=2345`, selector: 'h1' },
  { name: 'a channel’s videos', path: `/channel/${IDS.bigChannel}`, selector: FIRST_ROW },
  {
    name: 'a channel’s playlists',
    path: `/channel/${IDS.bigChannel}/playlists`,
    selector: FIRST_ROW,
  },
  { name: 'an unknown playlist', path: `/playlist/${IDS.unknownPlaylist}`, selector: 'h1' },
  { name: 'an unknown path', path: '/no/such/page', selector: 'h1' },
] as const;

for (const view of VIEWS) {
  test(`${view.name} hydrates the server’s markup without an error`, async ({
    page,
    expectConsoleErrors,
  }) => {
    // The browser logs the 404 status of a not-found page's own document.
    expectConsoleErrors(/status of 404/);
    await markServerElement(page, view.selector);
    await page.goto(view.path);
    await expect(page.locator('html[data-hydrated]')).toBeAttached();
    // The same DOM node: hydration adopted it rather than drawing the view again.
    const adopted = await page
      .locator(view.selector)
      .first()
      .evaluate((element) => (element as Element & { fromServer?: boolean }).fromServer === true);
    expect(adopted).toBe(true);
  });
}

test('a link to an item of the first page opens there once the app has taken over', async ({
  page,
}) => {
  await page.goto(`/playlist/${IDS.playlist5000}?index=60`);
  await expect(page.locator('html[data-hydrated]')).toBeAttached();
  const target = page.locator(`${ROWS}[aria-posinset="60"]`);
  await expect(target).toBeInViewport();
  await expect(target.locator('[aria-current="true"]')).toBeVisible();
});
