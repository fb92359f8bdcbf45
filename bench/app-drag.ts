import type { Browser, Page } from '@playwright/test';
import { FIXTURE_IDS } from '../src/catalogue/demo-fixtures.ts';
import { launchChromium, ROW_SELECTOR } from './browser.ts';
import { labelled, profileEnv, slowCpu, type Conditions } from './latency-profiles.ts';
import { againstTheChain, rawChain, withFreshExplorer } from './raw-chain.ts';
import type { BenchRow } from './table.ts';

// Bench 9: a reader drags the scrollbar of the 5,000-video playlist to item 4,000, with nothing
// past the first page loaded anywhere (a fresh explorer, so a cold server cache): the time until
// item 4,000 is shown, loaded, against the floor: a script in the same browser, same origin,
// following the continuations to the page that holds item 4,000 as fast as it can. Both are timed
// from the request for page 2, under each latency profile and page speed (latency-profiles.ts).

export const DRAG_TARGET = 4000;

/** The playlist's view in a fresh context, the page's CPU slowed as asked, once hydrated. */
export async function openPlaylist(
  browser: Browser,
  url: string,
  cpuSlowdown: Conditions['cpuSlowdown'],
  search = '',
): Promise<{ page: Page; close: () => Promise<void> }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await slowCpu(context, page, cpuSlowdown);
  await page.goto(`${url}/playlist/${FIXTURE_IDS.playlist5000}${search}`);
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
  // And its rows: a cold explorer may have sent the view loading (FIRST_PAINT_WAIT_MS), its
  // rows then arriving after hydration.
  await page.waitForSelector(`${ROW_SELECTOR} a`, { state: 'attached' });
  return { page, close: () => context.close() };
}

/** What a drag of the scrollbar does (the window jumps at once); ms until `target` is shown. */
export function dragTo(page: Page, target = DRAG_TARGET): Promise<number> {
  return page.evaluate(
    ({ selector, target }) =>
      new Promise<number>((resolve) => {
        const list = document.querySelector(selector)!.closest('[role="feed"]')!;
        const row = document.querySelector(selector)!.getBoundingClientRect().height;
        const started = performance.now();
        const shown = () =>
          document.querySelector(`${selector}[aria-posinset="${target}"] a`) !== null;
        new MutationObserver((_, observer) => {
          if (!shown()) return;
          observer.disconnect();
          resolve(performance.now() - started);
        }).observe(list, { childList: true, subtree: true });
        const top = list.getBoundingClientRect().top + window.scrollY;
        window.scrollTo(0, top + (target - 1) * row);
      }),
    { selector: ROW_SELECTOR, target },
  );
}

export async function benchDragDeep(options: {
  conditions: readonly Conditions[];
  roundsFor: (conditions: Conditions) => number;
}): Promise<BenchRow[]> {
  const browser = await launchChromium();
  const rows: BenchRow[] = [];
  try {
    for (const conditions of options.conditions) {
      const appTimes: number[] = [];
      const floorTimes: number[] = [];
      for (let round = 0; round < options.roundsFor(conditions); round++) {
        const floor = (await rawChain(browser, FIXTURE_IDS.playlist5000, DRAG_TARGET, conditions))
          .ms;
        const app = await withFreshExplorer(async (url) => {
          const view = await openPlaylist(browser, url, conditions.cpuSlowdown);
          const ms = await dragTo(view.page);
          await view.close();
          return ms;
        }, profileEnv(conditions.profile));
        appTimes.push(app);
        floorTimes.push(floor);
      }
      rows.push(
        againstTheChain(
          '9',
          labelled(
            `app, drag to item ${DRAG_TARGET.toLocaleString('en')} of a cold playlist: until it is shown`,
            conditions,
          ),
          'fetch loop to its page',
          appTimes,
          floorTimes,
        ),
      );
    }
    return rows;
  } finally {
    await browser.close();
  }
}
