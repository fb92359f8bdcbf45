import { FIXTURE_IDS } from '../src/catalogue/demo-fixtures.ts';
import { launchChromium, ROW_SELECTOR } from './browser.ts';
import { labelled, profileEnv, slowCpu, type Conditions } from './latency-profiles.ts';
import { againstTheChain, rawChain, withFreshExplorer } from './raw-chain.ts';
import type { BenchRow } from './table.ts';

// Bench 7: how long the app takes to hold all 5,000 items (a deep link to item 5,000 loads every
// page before it), against the floor: a script in the same browser, same origin, following the same
// continuations as fast as it can. Each measurement gets a fresh explorer, so both start with a
// cold server cache. The app's first page comes inside its HTML, and loading the app's code is
// bench 5's subject, so both are timed over the same 49 continuations: from the request for page 2
// to the last item (the app: its row in the DOM). Under each latency profile and page speed
// (latency-profiles.ts), the floor under the same.

const LAST_ROW_PROBE = `
  (() => {
    const observer = new MutationObserver(() => {
      if (document.querySelector('${ROW_SELECTOR}[aria-posinset="5000"]')) {
        window.__lastRow = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document, { childList: true, subtree: true });
  })();
`;

export async function benchWholePlaylist(options: {
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
        const chain = await rawChain(browser, FIXTURE_IDS.playlist5000, Infinity, conditions);
        if (chain.items !== 5000) throw new Error(`followed to ${chain.items} items`);
        const floor = chain.ms;
        const app = await withFreshExplorer(async (url) => {
          const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
          await context.addInitScript(LAST_ROW_PROBE);
          const page = await context.newPage();
          await slowCpu(context, page, conditions.cpuSlowdown);
          await page.goto(`${url}/playlist/${FIXTURE_IDS.playlist5000}?index=5000`);
          await page.waitForSelector(`${ROW_SELECTOR}[aria-posinset="5000"]`, {
            timeout: 120_000,
          });
          const ms = await page.evaluate(() => {
            const firstApi = performance
              .getEntriesByType('resource')
              .filter((e) => e.name.includes('/api/v1/playlist'))
              .map((e) => e.startTime)
              .sort((a, b) => a - b)[0];
            if (document.getElementById('app-state') === null || firstApi === undefined)
              throw new Error('expected page 1 inside the HTML and page 2 from the API');
            return (window as unknown as { __lastRow: number }).__lastRow - firstApi;
          });
          await context.close();
          return ms;
        }, profileEnv(conditions.profile));
        appTimes.push(app);
        floorTimes.push(floor);
      }
      rows.push(
        againstTheChain(
          '7',
          labelled(
            'app, whole 5,000-item playlist: page 2 → item 5,000 in the DOM (cold server cache)',
            conditions,
          ),
          'fetch loop, same 49 continuations',
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
