import { LIST_ROW_SELECTOR } from '../src/shared/app-render.ts';
import AxeBuilder from '@axe-core/playwright';
import {
  test as base,
  expect,
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
} from '@playwright/test';
import type { E2EOptions } from '../playwright.config.ts';
import { FIXTURE_IDS } from '../src/catalogue/demo-fixtures.ts';
import type { FaultSettings } from '../src/catalogue/fault-settings.ts';

// Shared fixtures (house style, after epic-stack's playwright-utils): every test fails on a
// browser console error unless it names the errors it expects (a 404 answer is logged by the
// browser as one), and can switch the embedded catalogue's faults.

/** The demo catalogue's fixed IDs, and one of the right shape that no playlist has. */
export const IDS = {
  ...FIXTURE_IDS,
  unknownPlaylist: 'PLthisPlaylistDoesNotExist000000000',
} as const;

/** Rows of the virtual lists: list items with a position. */
export const ROWS = LIST_ROW_SELECTOR;

/** The embedded catalogue's fault switches (spec §5.3); settings left out are off. */
export interface FaultSwitch {
  set(settings: Partial<FaultSettings>): Promise<void>;
  reset(): Promise<void>;
}

interface Fixtures {
  /** Console errors matching one of these are expected by the test. */
  expectConsoleErrors: (...patterns: RegExp[]) => void;
  faults: FaultSwitch;
  consoleGuard: void;
}

export const test = base.extend<Fixtures & E2EOptions>({
  cataloguePort: [0, { option: true }],

  // Every page of the test's browser context: the test's own page, and any it opens itself.
  context: async ({ context, javaScriptEnabled }, use) => {
    context.on('page', (page) => gotoWaitsForTheApp(page, javaScriptEnabled !== false));
    await use(context);
  },

  // Playwright reads the fixtures a fixture needs from its first parameter's pattern.
  // eslint-disable-next-line no-empty-pattern
  expectConsoleErrors: async ({}, use, testInfo) => {
    const patterns: RegExp[] = [];
    (testInfo as unknown as { expectedConsoleErrors: RegExp[] }).expectedConsoleErrors = patterns;
    await use((...more) => patterns.push(...more));
  },

  consoleGuard: [
    async ({ page, expectConsoleErrors: _ }, use, testInfo) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error')
          errors.push(`${message.text()} (${message.location().url})`);
      });
      page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
      await use();
      const expected = (testInfo as unknown as { expectedConsoleErrors: RegExp[] })
        .expectedConsoleErrors;
      const unexpected = errors.filter((text) => !expected.some((pattern) => pattern.test(text)));
      expect(unexpected, 'errors in the browser console').toEqual([]);
    },
    { auto: true },
  ],

  faults: async ({ cataloguePort, request }, use) => {
    const url = `http://127.0.0.1:${cataloguePort}/__faults`;
    const control: FaultSwitch = {
      async set(settings) {
        const response = await request.put(url, { data: settings });
        expect(response.ok(), await response.text()).toBe(true);
      },
      async reset() {
        const response = await request.delete(url);
        expect(response.ok(), await response.text()).toBe(true);
      },
    };
    await control.reset();
    await use(control);
    await control.reset();
  },
});

export { expect };

/**
 * Pages arrive rendered by the server and readable at once; the app takes them over a moment
 * later (hydration). A journey that scrolls or clicks starts from the app (a click before then
 * meets markup with no handler), so `goto` waits for that moment too, unless scripts are off,
 * when there is none.
 */
function gotoWaitsForTheApp(page: Page, scripts: boolean): void {
  if (!scripts) return;
  const goto = page.goto.bind(page);
  page.goto = async (url, options) => {
    const response = await goto(url, options);
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
    return response;
  };
}

/** A browser profile of its own (nothing stored), whose pages' `goto` waits for the app. */
export async function cleanProfile(browser: Browser, origin: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: origin });
  context.on('page', (page) => gotoWaitsForTheApp(page, true));
  return context;
}

/** No serious or critical accessibility violations on what the page shows now. */
export async function expectAccessible(page: Page): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
  expect(serious, 'serious or critical axe violations').toEqual([]);
}

/** Every page of a list, through the lookups the app uses, in order. */
export async function listPages<P extends { continuation: string | null }>(
  request: APIRequestContext,
  endpoint: string,
  id: string,
): Promise<P[]> {
  const pages: P[] = [];
  let continuation: string | null = null;
  do {
    const query = new URLSearchParams({ id });
    if (continuation !== null) query.set('continuation', continuation);
    const response = await request.get(`/api/v1/${endpoint}?${query}`);
    expect(response.ok()).toBe(true);
    const page = (await response.json()) as P;
    pages.push(page);
    continuation = page.continuation;
  } while (continuation !== null);
  return pages;
}

/** Whether the element is (at least partly) inside the window now. */
export async function inViewport(locator: Locator): Promise<boolean> {
  if ((await locator.count()) === 0) return false;
  return locator.first().evaluate((element) => {
    const rect = element.getBoundingClientRect();
    return rect.bottom > 0 && rect.top < window.innerHeight && rect.height > 0;
  });
}

/** Scrolls the window down until `done` holds, a screen at a time, as a reader would. */
export async function scrollUntil(
  page: Page,
  done: () => Promise<boolean>,
  maxSteps = 400,
): Promise<void> {
  for (let step = 0; step < maxSteps; step++) {
    if (await done()) return;
    await page.mouse.wheel(0, 2000);
    // Let the virtualizer render and the next page arrive before judging again.
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
  }
  throw new Error('scrolled without reaching the goal');
}

/**
 * Records, from before the page's own scripts run, the largest number of rows the DOM ever
 * holds (every DOM change is checked). Call before `page.goto`; read with `maxRowsSeen`.
 */
export async function trackMaxRows(page: Page): Promise<void> {
  await page.addInitScript((selector) => {
    const w = window as unknown as { __maxRows: number };
    w.__maxRows = 0;
    new MutationObserver(() => {
      w.__maxRows = Math.max(w.__maxRows, document.querySelectorAll(selector).length);
    }).observe(document, { childList: true, subtree: true });
  }, ROWS);
}

export function maxRowsSeen(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { __maxRows: number }).__maxRows);
}
