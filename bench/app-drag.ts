import { FIXTURE_IDS } from '../src/catalogue/demo-fixtures.ts';
import type { BenchOptions } from './catalogue-paging.ts';
import { launchChromium, ROW_SELECTOR } from './browser.ts';
import { rawChain, withFreshExplorer } from './raw-chain.ts';
import { formatSpread, spread } from './stats.ts';
import type { BenchRow } from './table.ts';

// Bench 9: a reader drags the scrollbar of the 5,000-video playlist to item 4,000, with nothing
// past the first page loaded anywhere (a fresh explorer, so a cold server cache): the time until
// item 4,000 is shown, loaded, against the floor: a script in the same browser, same origin,
// following the continuations to the page that holds item 4,000 as fast as it can. Both are timed
// from the request for page 2.

const TARGET = 4000;

export async function benchDragDeep(options: BenchOptions): Promise<BenchRow[]> {
  const browser = await launchChromium();
  const appTimes: number[] = [];
  const floorTimes: number[] = [];
  const ratios: number[] = [];
  try {
    for (let round = 0; round < options.rounds; round++) {
      const floor = (await rawChain(browser, FIXTURE_IDS.playlist5000, TARGET)).ms;
      const app = await withFreshExplorer(async (url) => {
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        const page = await context.newPage();
        await page.goto(`${url}/playlist/${FIXTURE_IDS.playlist5000}`);
        await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
        const ms = await page.evaluate(
          ({ selector, target }) =>
            new Promise<number>((resolve) => {
              const list = document.querySelector(selector)!.closest('ul')!;
              const row = document.querySelector(selector)!.getBoundingClientRect().height;
              const started = performance.now();
              const shown = () =>
                document.querySelector(`${selector}[aria-posinset="${target}"] a`) !== null;
              new MutationObserver((_, observer) => {
                if (!shown()) return;
                observer.disconnect();
                resolve(performance.now() - started);
              }).observe(list, { childList: true, subtree: true });
              // What a drag of the scrollbar does: the window jumps there at once.
              const top = list.getBoundingClientRect().top + window.scrollY;
              window.scrollTo(0, top + (target - 1) * row);
            }),
          { selector: ROW_SELECTOR, target: TARGET },
        );
        await context.close();
        return ms;
      });
      appTimes.push(app);
      floorTimes.push(floor);
      ratios.push(app / floor);
    }
    const r = spread(ratios);
    return [
      {
        bench: '9',
        measure: `app, drag to item ${TARGET.toLocaleString('en')} of a cold playlist: until it is shown`,
        figure: formatSpread(spread(appTimes), 0, ' ms'),
        reference: `fetch loop to its page ${formatSpread(spread(floorTimes), 0, ' ms')}`,
        ratio: formatSpread(r, 2, '×'),
        target: '≤ 1.2×',
        met: r.median <= 1.2,
      },
    ];
  } finally {
    await browser.close();
  }
}
