import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { chromium, type Browser, type Page } from '@playwright/test';
import { FIXTURE_IDS } from '../src/catalogue/demo-fixtures.ts';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from './chromium.ts';
import { useCardFonts } from '../src/server/cards/card-fonts.ts';
import { translationsFor } from '../src/server/rendering/translations.ts';
import type { AppLocale } from '../src/shared/locales.ts';
import { BUILT_SERVER } from '../src/server/start.ts';

// Screenshots of every view, desktop 1280×800 and phone 360×740, light and dark, and the views'
// preview cards, into docs/screenshots/. Run after a build:
//   npm run build && node e2e/screenshots.ts
// (SCREENSHOT_ONLY=whole-list takes only the views whose name starts with it; =lang only the
// views in Arabic, Japanese and German; =jobs only the jobs' views, from a server of their own)
// against a running explorer (SCREENSHOT_BASE_URL=http://127.0.0.1:8080), or, by default,
// against one it starts itself on a spare port with the embedded catalogue.

const OUT = 'docs/screenshots';
const PLAYLIST = FIXTURE_IDS.playlist5000;
const CHANNEL = FIXTURE_IDS.bigChannel;

/**
 * Following, with three lists followed, as after a first visit: what was seen then is what the
 * lists held before their newest items, so the view shows some as new.
 */
async function followSome(page: Page, base: string): Promise<void> {
  const get = async (path: string) => (await fetch(base + path)).json();
  const tail = (await get(`/feeds/playlist/${FIXTURE_IDS.playlist101}.json`)) as {
    items: Array<{ url: string; external_url: string }>;
  };
  const channel = (await get(`/feeds/channel/${CHANNEL}.json`)) as {
    items: Array<{ url: string }>;
  };
  const video = (url: string) => new URL(url).searchParams.get('v')!;
  const position = (url: string) => Number(new URL(url).searchParams.get('index'));
  const lists = [
    {
      kind: 'playlist',
      id: FIXTURE_IDS.playlist101,
      title: 'Field recordings',
      followedAt: 0,
      seen: {
        at: 0,
        items: tail.items
          .slice(2)
          .map((item) => ({ id: video(item.url), position: position(item.external_url) })),
      },
    },
    {
      kind: 'channel',
      id: CHANNEL,
      title: 'Catalogue Demo Studios',
      followedAt: 0,
      seen: {
        at: 0,
        items: channel.items.slice(3).map((item) => ({ id: video(item.url), position: null })),
      },
    },
    { kind: 'playlist', id: PLAYLIST, title: 'Every talk', followedAt: 0, seen: null },
  ];
  await page.goto(`${base}/robots.txt`);
  await page.evaluate(
    (value) => localStorage.setItem('catalogue-explorer.following', value),
    JSON.stringify({ version: 1, lists }),
  );
}

/**
 * A reader who has begun the 5,000-item playlist, as after a first visit: where they were
 * (#6, opened) and the items they have watched, all in the first screen of the list.
 */
async function progressSome(page: Page, base: string): Promise<void> {
  const key = `playlist:${PLAYLIST}`;
  const entry = {
    v: 1,
    kind: 'playlist',
    id: PLAYLIST,
    position: 6,
    how: 'opened',
    at: Date.now() - 3 * 24 * 3600 * 1000,
    marks: [1, 2, 3, 5, 6],
  };
  await page.goto(`${base}/robots.txt`);
  await page.evaluate(
    (value) => localStorage.setItem('catalogue-explorer.progress', value),
    JSON.stringify({ version: 1, entries: { [key]: entry } }),
  );
}

const views: Array<{
  name: string;
  path: string;
  ready: (page: Page) => Promise<void>;
  prepare?: (page: Page, base: string) => Promise<void>;
}> = [
  {
    name: 'following',
    path: '/following',
    prepare: followSome,
    ready: (p) => p.getByText('2 added').waitFor(),
  },
  {
    name: 'home',
    path: '/',
    ready: (p) => p.getByRole('region', { name: 'Demo catalogue' }).waitFor(),
  },
  {
    name: 'playlist',
    path: `/playlist/${PLAYLIST}`,
    ready: (p) => p.locator('article[aria-posinset="1"] img').first().waitFor(),
  },
  {
    // The keys overlay, opened as a reader would: `?` on a focused row.
    name: 'keys',
    path: `/playlist/${PLAYLIST}`,
    ready: async (p) => {
      await p.locator('html[data-hydrated]').waitFor({ state: 'attached' });
      await p.locator('article[aria-posinset="2"][tabindex]').focus();
      await p.keyboard.press('?');
      await p.getByRole('dialog').waitFor();
    },
  },
  {
    // Progress: Continue at #6, the time left from there, the watched marks on the rows.
    name: 'progress',
    path: `/playlist/${PLAYLIST}`,
    prepare: progressSome,
    ready: async (p) => {
      await p.locator('article[aria-posinset="1"] img').first().waitFor();
      await p.getByTestId('progress-time-left').waitFor();
    },
  },
  {
    name: 'playlist-deep-link',
    path: `/playlist/${PLAYLIST}?index=2345`,
    ready: (p) => p.locator('article[aria-posinset="2345"] [aria-current="true"]').waitFor(),
  },
  {
    name: 'channel-videos',
    path: `/channel/${CHANNEL}`,
    ready: (p) => p.locator('article[aria-posinset="1"]').waitFor(),
  },
  {
    name: 'channel-playlists',
    path: `/channel/${CHANNEL}/playlists`,
    ready: (p) => p.locator('article[aria-posinset="1"]').waitFor(),
  },
  {
    name: 'channel-no-playlists',
    path: `/channel/${FIXTURE_IDS.smallChannel}/playlists`,
    ready: (p) => p.getByText('This channel has no public playlists').waitFor(),
  },
  {
    // The "Whole list" panel, opened by a shared range, after Load all: totals, sort, export,
    // the charts and the find bar, scrolled to the panel's top.
    name: 'whole-list',
    path: `/playlist/${FIXTURE_IDS.playlist101}?from=20&to=60`,
    ready: async (p) => {
      await p.locator('html[data-hydrated]').waitFor({ state: 'attached' });
      await p.getByRole('button', { name: 'Load all', exact: true }).click();
      await p.getByText('All 101 items are loaded').waitFor();
      await p.getByTestId('total-duration').waitFor();
      await p.getByRole('region', { name: 'Whole list' }).evaluate((e) => e.scrollIntoView());
    },
  },
  {
    // Find over a sorted channel: the bar stays over the list, the match is marked.
    name: 'whole-list-find',
    path: `/channel/${FIXTURE_IDS.smallChannel}?sort=views&q=jazz`,
    ready: async (p) => {
      await p.locator('html[data-hydrated]').waitFor({ state: 'attached' });
      const find = p.getByRole('searchbox', { name: 'Find in titles' });
      await p.getByTestId('find-count').getByText(/match/).waitFor();
      await find.press('Enter');
      await p.locator('article[aria-posinset] [aria-current="true"]').waitFor();
      await find.blur();
    },
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

async function startServer(
  port: number,
  env: Record<string, string> = {},
): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['--enable-source-maps', BUILT_SERVER], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
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

/**
 * The preview cards themselves (`card-*.png`): the home page's, a playlist's, a channel's, and
 * item cards whose titles are in Latin, CJK and Arabic script and carry emoji, found by reading
 * the big playlist's pages through the API as a reader scrolling would (which puts them in the
 * cache, so that each item's card can show it).
 */
async function saveCards(base: string): Promise<void> {
  const save = async (name: string, path: string) => {
    const response = await fetch(base + path);
    if (response.status !== 200) throw new Error(`${path}: ${response.status}`);
    const file = `${OUT}/card-${name}.png`;
    writeFileSync(file, Buffer.from(await response.arrayBuffer()));
    console.log(file);
  };
  await save('home', '/cards/home.png');
  await save('playlist', `/cards/playlist/${PLAYLIST}.png`);
  await save('channel', `/cards/channel/${CHANNEL}.png`);
  const wanted: Array<[string, RegExp]> = [
    ['latin', /^[\p{Script=Latin}\p{N}\p{P}\s]+$/u],
    ['cjk', /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u],
    ['arabic', /\p{Script=Arabic}/u],
    // Emoji in a title otherwise in Latin, Cyrillic or Greek (the CJK and Arabic ones are above).
    [
      'emoji',
      /^(?=.*\p{Extended_Pictographic})[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Arabic}]+$/u,
    ],
  ];
  const found = new Map<string, number>();
  let continuation: string | null = null;
  for (let page = 0; page < 20 && found.size < wanted.length; page++) {
    const query = new URLSearchParams({ id: PLAYLIST });
    if (continuation) query.set('continuation', continuation);
    const body = (await (await fetch(`${base}/api/v1/playlist?${query}`)).json()) as {
      items: Array<{ index: number; title: string }>;
      continuation: string | null;
    };
    for (const item of body.items)
      for (const [name, pattern] of wanted)
        if (!found.has(name) && pattern.test(item.title)) found.set(name, item.index);
    continuation = body.continuation;
    if (continuation === null) break;
  }
  for (const [name, index] of found)
    await save(`item-${name}`, `/cards/playlist/${PLAYLIST}.png?index=${index}`);
}

/** The playlist's embed as an <iframe> of 480×600 shows it (oEmbed's snippet), light and dark. */
async function saveEmbeds(browser: Browser, base: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({
      viewport: { width: 480, height: 600 },
      colorScheme,
    });
    const page = await context.newPage();
    await page.goto(`${base}/embed/playlist/${PLAYLIST}`);
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
    await page.locator('article[aria-posinset="1"] img').first().waitFor();
    await page.evaluate(() => document.fonts.ready);
    const file = `${OUT}/card-embed-${colorScheme}.png`;
    await page.screenshot({ path: file });
    console.log(file);
    await context.close();
  }
}

/**
 * The playlist, the Whole list panel and a channel in Arabic (right to left), Japanese and
 * German (the longest words), desktop and phone: `lang-<locale>-<view>-<device>.png`. This
 * machine's Chromium has no Arabic or CJK fonts of its own, so it is given the Noto fonts the
 * cards are drawn with (a reader's device has its own).
 */
async function saveLanguages(base: string): Promise<void> {
  useCardFonts();
  const browser = await chromium.launch({
    executablePath: CHROMIUM_EXECUTABLE,
    args: CHROMIUM_ARGS,
    env: { ...process.env } as Record<string, string>,
  });
  try {
    for (const locale of ['ar', 'ja', 'de'] as const satisfies AppLocale[]) {
      const t = translationsFor(locale).i18n;
      const shots: Array<{
        name: string;
        path: string;
        ready: (p: Page) => Promise<void>;
        prepare?: (page: Page, base: string) => Promise<void>;
      }> = [
        {
          name: 'playlist',
          path: `/playlist/${PLAYLIST}?hl=${locale}`,
          ready: (p) => p.locator('article[aria-posinset="1"] img').first().waitFor(),
        },
        {
          name: 'whole-list',
          path: `/playlist/${FIXTURE_IDS.playlist101}?from=20&to=60&hl=${locale}`,
          ready: async (p) => {
            await p.locator('html[data-hydrated]').waitFor({ state: 'attached' });
            await p
              .getByRole('button', { name: t._('wholeList.loadAll.start'), exact: true })
              .click();
            await p.getByText(t._('wholeList.loadAll.allLoaded', { count: 101 })).waitFor();
            await p.getByTestId('total-duration').waitFor();
            await p
              .getByRole('region', { name: t._('wholeList.title') })
              .evaluate((e) => e.scrollIntoView());
          },
        },
        {
          name: 'keys',
          path: `/playlist/${PLAYLIST}?hl=${locale}`,
          ready: async (p) => {
            await p.locator('html[data-hydrated]').waitFor({ state: 'attached' });
            await p.locator('article[aria-posinset="2"][tabindex]').focus();
            await p.keyboard.press('?');
            await p.getByRole('dialog', { name: t._('keys.title') }).waitFor();
          },
        },
        {
          name: 'channel',
          path: `/channel/${CHANNEL}?hl=${locale}`,
          ready: (p) => p.locator('article[aria-posinset="1"]').waitFor(),
        },
        {
          name: 'progress',
          path: `/playlist/${PLAYLIST}?hl=${locale}`,
          prepare: progressSome,
          ready: async (p) => {
            await p.locator('article[aria-posinset="1"] img').first().waitFor();
            await p.getByTestId('progress-time-left').waitFor();
          },
        },
      ];
      for (const device of devices) {
        const context = await browser.newContext({ ...device, colorScheme: 'light' });
        const page = await context.newPage();
        for (const shot of shots) {
          await shot.prepare?.(page, base);
          await page.goto(base + shot.path);
          await shot.ready(page);
          await page.evaluate(() => document.fonts.ready);
          const file = `${OUT}/lang-${locale}-${shot.name}-${device.name}.png`;
          await page.screenshot({ path: file });
          console.log(file);
        }
        await context.close();
      }
    }
  } finally {
    await browser.close();
  }
}

/**
 * Jobs (docs/jobs.md, "In the app"): the Whole list panel of the 300,000-video channel with its
 * text export as a job waiting for quota (`jobs-panel-*`), and the jobs view with that job, a
 * done summary and one the server no longer has (`jobs-*`), desktop and phone, light and dark.
 * From a server of their own whose window is ten seconds, so that a job waits within the shot;
 * each shot a client of its own (X-Forwarded-For, trusted there), its job cancelled after.
 */
async function saveJobs(browser: Browser): Promise<void> {
  const server = await startServer(Number(process.env.SCREENSHOT_PORT ?? 4199) + 1, {
    CATALOGUE_QUOTA: '2000',
    CATALOGUE_QUOTA_WINDOW: '10s',
    JOB_READER_RESERVE: '0.2',
    TRUST_PROXY: 'true',
    CLIENT_SHARE_OF_WINDOW: '1',
    CLIENT_RATE_LIMIT_BURST: '100000',
    CLIENT_RATE_LIMIT_PER_SECOND: '100000',
    CHAIN_WARM_SHARE: '0',
    STATE_DIR: '',
  });
  const base = server.url;
  let client = 0;
  try {
    for (const device of devices) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const context = await browser.newContext({ ...device, colorScheme });
        await context.setExtraHTTPHeaders({ 'X-Forwarded-For': `10.0.${++client}.1` });
        const page = await context.newPage();
        // A done summary of the 10,000-video channel, started as the panel starts one.
        const summary = await page.request.post(`${base}/api/jobs`, {
          data: { list: 'channel-videos', id: CHANNEL, kind: 'summary' },
        });
        const done = (await summary.json()) as { id: string; request: unknown };
        await page.goto(`${base}/robots.txt`);
        await page.evaluate(({ key, jobs }) => localStorage.setItem(key, jobs), {
          key: 'catalogue-explorer.jobs',
          jobs: JSON.stringify({
            version: 1,
            jobs: [
              {
                id: done.id,
                request: done.request,
                title: 'Catalogue Demo Studios',
                createdAt: Date.now() - 60_000,
                ended: null,
                notify: false,
              },
              {
                id: 'AAAAAAAAAAAAAAAAAAAAAA',
                request: { list: 'playlist', id: PLAYLIST, kind: 'export', format: 'csv' },
                title: 'Every talk, 2010–2026',
                createdAt: Date.now() - 86_400_000,
                ended: null,
                notify: false,
              },
            ],
          }),
        });
        await page.goto(`${base}/channel/${FIXTURE_IDS.hugeChannel}`);
        await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
        await page.getByRole('button', { name: 'Whole list', exact: true }).click();
        await page.getByRole('button', { name: 'Text as a job' }).click();
        const job = page.locator('[data-testid=job]');
        await job.and(page.locator('[data-job-state=waiting]')).waitFor({ timeout: 60_000 });
        await page.getByRole('region', { name: 'Whole list' }).evaluate((e) => e.scrollIntoView());
        await page.evaluate(() => document.fonts.ready);
        let file = `${OUT}/jobs-panel-${device.name}-${colorScheme}.png`;
        await page.screenshot({ path: file });
        console.log(file);

        await page.getByRole('banner').getByRole('link', { name: 'Jobs' }).click();
        await page.locator('[data-testid=job][data-job-state=gone]').waitFor();
        await page.locator('[data-testid=job][data-job-state=done]').waitFor();
        await job.and(page.locator('[data-job-state=waiting]')).waitFor({ timeout: 60_000 });
        await page.evaluate(() => document.fonts.ready);
        file = `${OUT}/jobs-${device.name}-${colorScheme}.png`;
        await page.screenshot({ path: file });
        console.log(file);
        const waiting = await job
          .and(page.locator('[data-job-state=waiting]'))
          .getAttribute('data-job-id');
        await page.request.delete(`${base}/api/jobs/${waiting}`);
        await context.close();
      }
    }
  } finally {
    server.child.kill();
  }
}

const given = process.env.SCREENSHOT_BASE_URL;
const server = given ? null : await startServer(Number(process.env.SCREENSHOT_PORT ?? 4199));
const base = given ?? server!.url;
const browser = await chromium.launch({ executablePath: CHROMIUM_EXECUTABLE, args: CHROMIUM_ARGS });
mkdirSync(OUT, { recursive: true });
try {
  if (!process.env.SCREENSHOT_ONLY || process.env.SCREENSHOT_ONLY.startsWith('card')) {
    await saveCards(base);
    await saveEmbeds(browser, base);
  }
  if (!process.env.SCREENSHOT_ONLY || process.env.SCREENSHOT_ONLY.startsWith('lang'))
    await saveLanguages(base);
  if (!process.env.SCREENSHOT_ONLY || process.env.SCREENSHOT_ONLY.startsWith('jobs'))
    await saveJobs(browser);
  for (const device of devices) {
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ ...device, colorScheme });
      const page = await context.newPage();
      const only = process.env.SCREENSHOT_ONLY;
      for (const view of views.filter((v) => !only || v.name.startsWith(only))) {
        await view.prepare?.(page, base);
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
