import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, IDS, ROWS, test } from './fixtures.ts';

// An embed on someone else's page: a host page on another origin frames the list as oEmbed's
// snippet does. The list reads and scrolls inside the frame, its links open new tabs, it takes
// the reader's colour scheme (or the one `?theme=` pins), and the explorer's own views refuse
// to be framed at all.

let host: Server;
let hostUrl: string;

test.beforeAll(async () => {
  // The page a blogger writes: `?src=` is the frame's address, `?scheme=` the page's colours.
  host = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://host');
    const scheme = url.searchParams.get('scheme') === 'dark' ? 'dark' : 'light';
    const src = url.searchParams.get('src') ?? '';
    response.setHeader('Content-Type', 'text/html; charset=utf-8');
    response.end(
      // data-hydrated: what the fixtures' goto waits for on the explorer's pages.
      `<!doctype html><html data-hydrated style="color-scheme:${scheme}"><head><title>A post</title></head>` +
        `<body><h1>A post</h1><iframe id="embed" src="${src.replaceAll('"', '&quot;')}" ` +
        `width="480" height="600" style="border:0" title="A list"></iframe></body></html>`,
    );
  });
  await new Promise<void>((done) => host.listen(0, '127.0.0.1', done));
  hostUrl = `http://127.0.0.1:${(host.address() as AddressInfo).port}`;
});
test.afterAll(() => new Promise<void>((done) => host.close(() => done())));

const hostPage = (src: string, scheme: 'light' | 'dark' = 'light') =>
  `${hostUrl}/?${new URLSearchParams({ src, scheme })}`;

test('a playlist framed on another site reads, scrolls on, and opens its links in new tabs', async ({
  page,
  baseURL,
}) => {
  await page.goto(hostPage(`${baseURL}/embed/playlist/${IDS.playlist5000}`));
  const frame = page.frameLocator('#embed');
  await expect(frame.locator(`${ROWS}[aria-posinset="1"]`)).toBeVisible();
  await expect(frame.getByRole('heading', { level: 1 })).toHaveText('Every talk, 2010–2026 🎤');
  // The reader scrolls inside the frame past the first page: the next ones load there.
  await frame.locator('html[data-hydrated]').waitFor({ state: 'attached' });
  const box = (await page.locator('#embed').boundingBox())!;
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  const lastRow = () =>
    frame
      .locator(ROWS)
      .evaluateAll((rows) => Math.max(...rows.map((row) => Number(row.ariaPosInSet))));
  await expect(async () => {
    await page.mouse.wheel(0, 1500);
    expect(await lastRow()).toBeGreaterThan(150);
  }).toPass({ timeout: 20_000 });
  // Rows past the first page are drawn from pages read in the frame.
  const shown = frame.locator(`${ROWS}[aria-posinset="${await lastRow()}"]`);
  await expect(shown.locator('a[href^="https://"]').first()).toBeAttached();
  // The channel under a video, and the footer, open the explorer in a new tab.
  const channel = shown.locator('a[href^="/channel/"]');
  await expect(channel).toHaveAttribute('target', '_blank');
  const full = frame.getByRole('link', { name: /Open the full list/ });
  await expect(full).toHaveAttribute('href', `/playlist/${IDS.playlist5000}`);
  const [tab] = await Promise.all([page.context().waitForEvent('page'), full.click()]);
  await tab.waitForLoadState();
  expect(tab.url()).toBe(`${baseURL}/playlist/${IDS.playlist5000}`);
  // The host page itself never moved.
  expect(page.url()).toContain(hostUrl);
});

test('it takes the reader’s colour scheme, unless ?theme= pins one', async ({ page, baseURL }) => {
  const background = async () =>
    page
      .frameLocator('#embed')
      .locator('main')
      .evaluate((main) => getComputedStyle(main.parentElement!).backgroundColor);
  const src = `${baseURL}/embed/channel/${IDS.bigChannel}`;
  const open = async (frameSrc: string, scheme: 'light' | 'dark') => {
    // The reader's system setting, which the host page and the frame both see.
    await page.emulateMedia({ colorScheme: scheme });
    await page.goto(hostPage(frameSrc, scheme));
    await expect(page.frameLocator('#embed').locator(ROWS).first()).toBeVisible();
    return background();
  };
  const light = await open(src, 'light');
  const dark = await open(src, 'dark');
  expect(dark).not.toBe(light);
  // Pinned: dark for a reader in light, light for one in dark.
  expect(await open(`${src}?theme=dark`, 'light')).toBe(dark);
  expect(await open(`${src}?theme=light`, 'dark')).toBe(light);
});

test('the explorer’s own views refuse to be framed', async ({
  page,
  baseURL,
  expectConsoleErrors,
}) => {
  expectConsoleErrors(/frame-ancestors/);
  const framed: string[] = [];
  page.on('response', (response) => {
    if (response.url().startsWith(`${baseURL}/playlist/`)) framed.push(response.url());
  });
  await page.goto(hostPage(`${baseURL}/playlist/${IDS.playlist5000}`));
  await expect.poll(() => framed.length).toBeGreaterThan(0);
  // The browser answered the frame's request and showed nothing of it.
  await expect(page.frameLocator('#embed').locator(ROWS)).toHaveCount(0);
});
