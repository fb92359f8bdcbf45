import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { chromium, type Page } from '@playwright/test';
import { FIXTURE_IDS } from '../src/catalogue/demo-fixtures.ts';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from './chromium.ts';

// Screenshots of every view, desktop 1280×800 and phone 360×740, light and dark,
// into docs/screenshots/. Run after a build:
//   npm run build && node e2e/screenshots.ts
// against a running explorer (SCREENSHOT_BASE_URL=http://127.0.0.1:8080), or, by default,
// against one it starts itself on a spare port with the embedded catalogue.

const OUT = 'docs/screenshots';
const PLAYLIST = FIXTURE_IDS.playlist5000;
const CHANNEL = FIXTURE_IDS.bigChannel;

const views: Array<{ name: string; path: string; ready: (page: Page) => Promise<void> }> = [
  {
    name: 'home',
    path: '/',
    ready: (p) => p.getByRole('region', { name: 'Demo catalogue' }).waitFor(),
  },
  {
    name: 'playlist',
    path: `/playlist/${PLAYLIST}`,
    ready: (p) => p.locator('li[aria-posinset="1"] img').first().waitFor(),
  },
  {
    name: 'playlist-deep-link',
    path: `/playlist/${PLAYLIST}?index=2345`,
    ready: (p) => p.locator('li[aria-posinset="2345"] [aria-current="true"]').waitFor(),
  },
  {
    name: 'channel-videos',
    path: `/channel/${CHANNEL}`,
    ready: (p) => p.locator('li[aria-posinset="1"]').waitFor(),
  },
  {
    name: 'channel-playlists',
    path: `/channel/${CHANNEL}/playlists`,
    ready: (p) => p.locator('li[aria-posinset="1"]').waitFor(),
  },
  {
    name: 'channel-no-playlists',
    path: `/channel/${FIXTURE_IDS.smallChannel}/playlists`,
    ready: (p) => p.getByText('This channel has no public playlists').waitFor(),
  },
  {
    name: 'playlist-not-found',
    path: '/playlist/PLthisPlaylistDoesNotExist000000000',
    ready: (p) => p.getByRole('heading', { name: 'Playlist not found' }).waitFor(),
  },
  {
    name: 'page-not-found',
    path: '/no/such/page',
    ready: (p) => p.getByRole('heading', { name: 'Page not found' }).waitFor(),
  },
];

const devices = [
  { name: 'desktop', viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 },
  { name: 'phone', viewport: { width: 360, height: 740 }, deviceScaleFactor: 2 },
] as const;

async function startServer(port: number): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['src/server/index.ts'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 150; i++) {
    try {
      if ((await fetch(`${url}/`)).ok) return { url, child };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill();
  throw new Error('the explorer did not start');
}

const given = process.env.SCREENSHOT_BASE_URL;
const server = given ? null : await startServer(Number(process.env.SCREENSHOT_PORT ?? 4199));
const base = given ?? server!.url;
const browser = await chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS });
mkdirSync(OUT, { recursive: true });
try {
  for (const device of devices) {
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ ...device, colorScheme });
      const page = await context.newPage();
      for (const view of views) {
        await page.goto(base + view.path);
        await view.ready(page);
        // Thumbnails on screen have loaded (lazy ones below the fold are left alone).
        await page.waitForFunction(() =>
          [...document.images].every((img) => {
            const rect = img.getBoundingClientRect();
            return img.complete || rect.top > window.innerHeight || rect.bottom < 0;
          }),
        );
        await page.evaluate(() => document.fonts.ready);
        const file = `${OUT}/${view.name}-${device.name}-${colorScheme}.png`;
        await page.screenshot({ path: file });
        console.log(file);
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
  server?.child.kill();
}
