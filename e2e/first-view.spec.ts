import AxeBuilder from '@axe-core/playwright';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { SERVER_RENDERED_ROWS } from '../src/shared/app-render.ts';
import { CHROMIUM_ARGS, HEADLESS_SHELL_EXECUTABLE } from './chromium.ts';
import { expect, IDS, ROWS, test } from './fixtures.ts';

// The first view: the server's page is the reader's from the moment it is painted, and the app
// taking it over (hydration) must not be noticed. A reader who has scrolled, focused a link or
// selected text before the scripts arrived finds the same rows, focus and selection after; and
// on every view, desktop and phone, nothing shifts when the app takes over, nothing breaks the
// page's own CSP, and axe finds nothing (its touch-target rule included, as Lighthouse runs it).

const DEVICES = {
  desktop: { viewport: { width: 1280, height: 900 } },
  // A phone's Chrome, which says so in its user agent and its client hints (Sec-CH-UA-Mobile):
  // the server renders it a phone's rows.
  phone: {
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    userAgent:
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/150.0.0.0 Mobile Safari/537.36',
  },
} as const;

// Playwright hides scrollbars in headless Chromium; a desktop reader has them, and a page that
// grows past the window as the app takes over gains one and moves everything centred beside it.
test.use({
  launchOptions: {
    executablePath: HEADLESS_SHELL_EXECUTABLE,
    args: CHROMIUM_ARGS,
    ignoreDefaultArgs: ['--hide-scrollbars'],
  },
});

/**
 * Holds back every script of the app until `release` is called: the browser gets the very files
 * the server sends, only later, as on a slow network. The HTML is painted and can be read and
 * scrolled meanwhile.
 */
async function holdScripts(page: Page): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/assets/*.js', async (route) => {
    await released;
    await route.continue();
  });
  return release;
}

interface Seen {
  y: number;
  /** Rows at least partly in the window: position and top edge. */
  rows: Array<[position: number, top: number]>;
  /** Whether each of those is the very element marked before hydration. */
  marked: boolean[];
}

/** The rows in the window; with `mark`, each gets a property only this DOM node carries. */
function rowsInWindow(page: Page, mark: boolean): Promise<Seen> {
  return page.evaluate(
    ({ selector, mark }) => {
      const rows = [...document.querySelectorAll<HTMLElement>(selector)].filter((row) => {
        const rect = row.getBoundingClientRect();
        return rect.bottom > 0 && rect.top < window.innerHeight;
      });
      if (mark)
        for (const row of rows) (row as HTMLElement & { fromServer?: true }).fromServer = true;
      return {
        y: window.scrollY,
        rows: rows.map((row): [number, number] => [
          Number(row.getAttribute('aria-posinset')),
          Math.round(row.getBoundingClientRect().top),
        ]),
        marked: rows.map((row) => (row as HTMLElement & { fromServer?: true }).fromServer === true),
      };
    },
    { selector: ROWS, mark },
  );
}

/** Two frames: what the app renders after an event is laid out and painted. */
function nextFrames(page: Page): Promise<unknown> {
  return page.evaluate(
    () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
  );
}

// How far the reader scrolls: well into the server's rows (fewer on a phone), and with the
// window still inside them.
const TAKEN_OVER = [
  {
    name: 'a playlist on a desktop',
    device: 'desktop',
    path: `/playlist/${IDS.playlist5000}`,
    rows: SERVER_RENDERED_ROWS.wide,
    scroll: 3000,
  },
  {
    name: 'a channel’s videos on a phone',
    device: 'phone',
    path: `/channel/${IDS.bigChannel}`,
    rows: SERVER_RENDERED_ROWS.narrow,
    scroll: 600,
  },
] as const;

for (const view of TAKEN_OVER) {
  test.describe(() => {
    test.use(DEVICES[view.device]);

    test(`${view.name}: a scroll, a focus and a selection made before hydration survive it`, async ({
      page,
    }) => {
      const release = await holdScripts(page);
      // The fixture's goto waits for the app, which the held scripts keep back: not awaited yet.
      const arrived = page.goto(view.path);
      await page.locator(`${ROWS}[aria-posinset="2"]`).waitFor();
      expect(await page.locator(ROWS).count(), 'rows the server rendered').toBe(view.rows);

      // A link in the second row focused, then the page scrolled far past it; text selected in a
      // row on screen there.
      const focused = page.locator(`${ROWS}[aria-posinset="2"] a`).last();
      await focused.focus();
      await focused.evaluate((link) => ((link as HTMLElement & { mark?: true }).mark = true));
      await page.mouse.wheel(0, view.scroll);
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(view.scroll);
      const before = await rowsInWindow(page, true);
      expect(before.rows.length).toBeGreaterThan(3);
      const selectedRow = before.rows[2]![0];
      const selected = await page.evaluate(
        ({ selector }) => {
          const title = document.querySelector(selector)!;
          const range = document.createRange();
          range.selectNodeContents(title);
          document.getSelection()!.removeAllRanges();
          document.getSelection()!.addRange(range);
          return document.getSelection()!.toString();
        },
        { selector: `${ROWS}[aria-posinset="${selectedRow}"] a` },
      );
      expect(selected).not.toBe('');
      expect(await page.evaluate(() => document.documentElement.dataset.hydrated)).toBeUndefined();

      release();
      await arrived;
      await nextFrames(page);

      const after = await rowsInWindow(page, false);
      expect(after.y).toBe(view.scroll);
      expect(after.rows).toEqual(before.rows);
      // The same DOM nodes: the app adopted them where they were.
      expect(after.marked.every(Boolean)).toBe(true);
      expect(
        await page.evaluate(
          () => (document.activeElement as (Element & { mark?: true }) | null)?.mark === true,
        ),
      ).toBe(true);
      expect(await page.evaluate(() => document.getSelection()!.toString())).toBe(selected);

      // And the app works from there: the rows follow the window.
      await page.mouse.wheel(0, 600);
      await expect
        .poll(async () => (await rowsInWindow(page, false)).rows[0]![0])
        .toBeGreaterThan(before.rows[0]![0]);
    });
  });
}

const VIEWS: ReadonlyArray<{
  name: string;
  path: string;
  ready: string;
  /** An element the server rendered, which hydration must adopt rather than draw again. */
  adopted: string;
  /** Views opened first, as a returning reader did: what the browser remembers of them. */
  openedBefore?: string[];
}> = [
  { name: 'home', path: '/', ready: 'h1', adopted: 'h1' },
  {
    name: 'home, for a reader who has opened views',
    path: '/',
    ready: 'h1',
    adopted: 'h1',
    openedBefore: [`/playlist/${IDS.playlist5000}`, `/channel/${IDS.bigChannel}`],
  },
  { name: 'a playlist', path: `/playlist/${IDS.playlist5000}`, ready: ROWS, adopted: ROWS },
  {
    name: 'a deep link',
    path: `/playlist/${IDS.playlist5000}?index=2345`,
    ready: `${ROWS}[aria-posinset="2345"] [aria-current="true"]`,
    adopted: 'h1',
  },
  {
    // Within the rows the server sent: the app opens there once it has taken over.
    name: 'a deep link into the first page',
    path: `/playlist/${IDS.playlist5000}?index=60`,
    ready: `${ROWS}[aria-posinset="60"] [aria-current="true"]`,
    adopted: `${ROWS}[aria-posinset="60"]`,
  },
  { name: 'a channel’s videos', path: `/channel/${IDS.bigChannel}`, ready: ROWS, adopted: ROWS },
  {
    name: 'a channel’s playlists',
    path: `/channel/${IDS.bigChannel}/playlists`,
    ready: ROWS,
    adopted: ROWS,
  },
  {
    name: 'an embedded playlist',
    path: `/embed/playlist/${IDS.playlist5000}`,
    ready: ROWS,
    adopted: ROWS,
  },
  {
    name: 'an embedded channel',
    path: `/embed/channel/${IDS.bigChannel}?theme=dark`,
    ready: ROWS,
    adopted: ROWS,
  },
  {
    name: 'an unknown playlist',
    path: `/playlist/${IDS.unknownPlaylist}`,
    ready: 'h1',
    adopted: 'h1',
  },
  { name: 'an unknown path', path: '/no/such/page', ready: 'h1', adopted: 'h1' },
];

/** Marks the first server-rendered element matching `selector` as it is parsed, before any script. */
function markServerElement(wanted: string): void {
  const observer = new MutationObserver(() => {
    const element = document.querySelector(wanted);
    if (!element) return;
    (element as Element & { fromServer?: boolean }).fromServer = true;
    observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true });
}

/** Installed before any page script: every layout shift and CSP violation, from the start. */
function watchFirstView(): void {
  const w = window as unknown as { __shifts: string[]; __violations: string[] };
  w.__shifts = [];
  w.__violations = [];
  type Shift = PerformanceEntry & {
    value: number;
    sources?: Array<{
      node?: Node | null;
      previousRect: DOMRectReadOnly;
      currentRect: DOMRectReadOnly;
    }>;
  };
  // What moved, and from where to where: a failure names its elements.
  const moved = (entry: Shift) =>
    (entry.sources ?? [])
      .map(({ node, previousRect: a, currentRect: b }) => {
        const element = node instanceof Element ? node : node?.parentElement;
        const name = element
          ? `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}.${[...element.classList].slice(0, 3).join('.')}`
          : String(node);
        return `${name} (${Math.round(a.x)},${Math.round(a.y)} ${Math.round(a.width)}×${Math.round(a.height)} → ${Math.round(b.x)},${Math.round(b.y)} ${Math.round(b.width)}×${Math.round(b.height)})`;
      })
      .join('; ');
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as Shift[])
      if (entry.value > 0)
        w.__shifts.push(
          `${entry.value.toFixed(4)} at ${Math.round(entry.startTime)} ms: ${moved(entry)}`,
        );
  }).observe({ type: 'layout-shift', buffered: true });
  document.addEventListener('securitypolicyviolation', (event) =>
    w.__violations.push(
      `${event.effectiveDirective}: ${event.blockedURI} (${event.sourceFile}:${event.lineNumber})`,
    ),
  );
}

for (const [device, settings] of Object.entries(DEVICES)) {
  test.describe(`on a ${device}`, () => {
    test.use(settings);

    for (const view of VIEWS) {
      test(`${view.name}: the server's markup adopted, no layout shift, CSP violation or axe violation as the app takes over`, async ({
        page,
        expectConsoleErrors,
      }) => {
        // The browser logs the 404 status of a not-found page's own document.
        expectConsoleErrors(/status of 404/);
        for (const path of view.openedBefore ?? []) await page.goto(path);
        await page.addInitScript(watchFirstView);
        await page.addInitScript(markServerElement, view.adopted);
        await page.goto(view.path);
        await expect(page.locator(view.ready).first()).toBeInViewport({ timeout: 20_000 });
        // The same DOM node: hydration adopted it rather than drawing the view again.
        const adopted = await page
          .locator(view.adopted)
          .first()
          .evaluate((element) => (element as Element & { fromServer?: boolean }).fromServer);
        expect(adopted, 'the server-rendered element, adopted by hydration').toBe(true);
        // Whatever the app does next on its own (pages read ahead, thumbnails) is in too.
        await page.waitForLoadState('networkidle');
        await nextFrames(page);

        const { shifts, violations } = await page.evaluate(() => {
          const w = window as unknown as { __shifts: string[]; __violations: string[] };
          return { shifts: w.__shifts, violations: w.__violations };
        });
        expect(shifts, 'layout shifts').toEqual([]);
        expect(violations, 'CSP violations').toEqual([]);

        const axe = await new AxeBuilder({ page })
          .options({ rules: { 'target-size': { enabled: true } } })
          .analyze();
        const found = axe.violations.map(
          (v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
        );
        expect(found, 'axe violations').toEqual([]);
      });
    }
  });
}

// A page on a slow link is painted while it is still arriving, a row or a button read only in
// part among it: nothing may move as the rest arrives. A real HTTP server in front of the
// explorer sends its documents cut in the middle of rows (after each row's title) and inside each
// button, a pause after each piece, so that the browser paints each half-read one; everything
// else goes through whole.
// It counts the pieces it has sent of each document (by path), so that a test can tell the cut
// happened: markup the cut no longer finds would send the document whole, and nothing would move.
async function tricklingProxy(
  target: string,
): Promise<{ origin: string; piecesSent: ReadonlyMap<string, number>; close(): void }> {
  const piecesSent = new Map<string, number>();
  const server = createServer((request, response) => {
    void (async () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers))
        if (typeof value === 'string' && name !== 'host') headers.set(name, value);
      headers.set('accept-encoding', 'identity');
      const upstream = await fetch(new URL(request.url ?? '/', target), { headers });
      const body = Buffer.from(await upstream.arrayBuffer());
      const type = upstream.headers.get('content-type') ?? '';
      response.writeHead(upstream.status, {
        'content-type': type,
        ...(type.startsWith('text/html') ? {} : { 'cache-control': 'no-store' }),
      });
      if (!type.startsWith('text/html')) return void response.end(body);
      const text = body.toString('utf8');
      // After each row's title, inside each button, whose label is then still to come, and
      // before each select, whose box is then still to come.
      const cuts = [...text.matchAll(/<\/bdi><\/a>|<button[^>]*>|(?=<select)/g)].map(
        (match) => match.index + match[0].length,
      );
      let from = 0;
      for (const cut of [...cuts, text.length]) {
        // Counted as it goes out: what had arrived when the test looks.
        piecesSent.set(request.url ?? '/', (piecesSent.get(request.url ?? '/') ?? 0) + 1);
        response.write(text.slice(from, cut));
        from = cut;
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
      response.end();
    })().catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, piecesSent, close: () => server.close() };
}

/** How many rows a page painted as it arrives is watched for, the last of them on screen. */
const TRICKLED_ROWS = 9;

for (const path of [`/playlist/${IDS.playlist5000}`, `/channel/${IDS.bigChannel}/playlists`]) {
  test(`${path}: a page painted as it arrives moves nothing`, async ({ page, baseURL }) => {
    const proxy = await tricklingProxy(baseURL!);
    try {
      await page.addInitScript(watchFirstView);
      await page.goto(`${proxy.origin}${path}`);
      await expect(page.locator(ROWS).nth(TRICKLED_ROWS - 1)).toBeVisible();
      // Cut at least once for each row waited for: a document sent whole has no half-read row.
      expect(proxy.piecesSent.get(path) ?? 0, 'pieces of the document sent').toBeGreaterThanOrEqual(
        TRICKLED_ROWS,
      );
      await nextFrames(page);
      const shifts = await page.evaluate(
        () => (window as unknown as { __shifts: string[] }).__shifts,
      );
      expect(shifts, 'layout shifts').toEqual([]);
    } finally {
      proxy.close();
    }
  });
}
