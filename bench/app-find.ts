import type { CDPSession, Page } from '@playwright/test';
import { FIXTURE_IDS } from '../src/catalogue/demo-fixtures.ts';
import { launchChromium } from './browser.ts';
import { labelled, slowCpu, type Conditions } from './latency-profiles.ts';
import { withFreshExplorer } from './raw-chain.ts';
import { formatSpread, percentile, spread } from './stats.ts';
import type { BenchRow } from './table.ts';

// Bench 12: find as you type over a whole channel. The app holds all 10,000 of the big channel's
// videos (the "Whole list" panel's Load all), and a query is typed a key at a time; for each key,
// the main thread's busy time from the key press until the match count has settled (the input's
// own update and the deferred search and render after it) is read from Chromium's own task
// accounting (CDP Performance.getMetrics, TaskDuration). The reference is the same typing into
// the same box with only the channel's first page loaded (30 videos), in the same run: what
// typing costs when the list costs nothing. At full speed and with the page's CPU slowed 4×
// (latency-profiles.ts); the typing involves no network, so only the local profile.

export const FIND_QUERY = 'sourdough bread';

async function taskSeconds(cdp: CDPSession): Promise<number> {
  const { metrics } = (await cdp.send('Performance.getMetrics')) as {
    metrics: Array<{ name: string; value: number }>;
  };
  return metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0;
}

/** Main-thread milliseconds per keystroke while typing `query` into the find box. */
async function typeAndMeasure(page: Page, cdp: CDPSession, query: string): Promise<number[]> {
  const box = page.getByRole('searchbox', { name: /^Find in/ });
  await box.fill('');
  const times: number[] = [];
  for (const key of query) {
    // Idle first, so the reading covers this key alone.
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 30))),
    );
    const before = await taskSeconds(cdp);
    await page.keyboard.press(key === ' ' ? 'Space' : key);
    // Settled: the count no longer dimmed as stale, and a frame painted after it. Waited for
    // inside the page, in one evaluation, so the reading holds no polling of ours.
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          const settled = () => {
            const count = document.querySelector('[data-testid="find-count"]');
            return count !== null && !count.className.includes('opacity-60');
          };
          const frame = () => requestAnimationFrame(() => setTimeout(() => resolve(), 0));
          if (settled()) return frame();
          const observer = new MutationObserver(() => {
            if (!settled()) return;
            observer.disconnect();
            frame();
          });
          observer.observe(document.body, {
            subtree: true,
            childList: true,
            attributes: true,
            characterData: true,
          });
        }),
    );
    times.push(((await taskSeconds(cdp)) - before) * 1000);
  }
  return times;
}

export async function benchFind(options: {
  conditions: readonly Conditions[];
  roundsFor: (conditions: Conditions) => number;
  /** Typed a key at a time, over the first page and then over all 10,000. */
  query: string;
}): Promise<BenchRow[]> {
  const { query } = options;
  const browser = await launchChromium();
  const rows: BenchRow[] = [];
  try {
    for (const conditions of options.conditions) {
      const loaded: number[] = [];
      const reference: number[] = [];
      const worst: number[] = [];
      const rounds = options.roundsFor(conditions);
      for (let round = 0; round < rounds; round++) {
        await withFreshExplorer(async (url) => {
          const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
          const page = await context.newPage();
          await slowCpu(context, page, conditions.cpuSlowdown);
          const cdp = await context.newCDPSession(page);
          await cdp.send('Performance.enable');
          await page.goto(`${url}/channel/${FIXTURE_IDS.bigChannel}`);
          await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
          await page.getByRole('button', { name: /^Whole list/ }).click();
          // First page only: the reference.
          const first = await typeAndMeasure(page, cdp, query);
          reference.push(percentile(first, 50));
          await page.getByRole('searchbox', { name: /^Find in/ }).fill('');
          await page.getByRole('button', { name: 'Load all', exact: true }).click();
          await page
            .getByText(/^All 10,000 items are loaded/)
            .waitFor({ state: 'visible', timeout: 180_000 });
          const all = await typeAndMeasure(page, cdp, query);
          loaded.push(percentile(all, 50));
          worst.push(Math.max(...all));
          await context.close();
        });
      }
      const l = spread(loaded);
      const r = spread(reference);
      const w = spread(worst);
      rows.push({
        bench: '12',
        measure: labelled(
          `find over the 10,000 loaded channel videos: main-thread time per keystroke, median (worst key ${formatSpread(w, 1, ' ms')}; "${query}", ${rounds} rounds)`,
          { cpuSlowdown: conditions.cpuSlowdown },
        ),
        figure: formatSpread(l, 1, ' ms'),
        reference: `the same typing with the first 30 loaded ${formatSpread(r, 1, ' ms')}`,
        ratio: `${(l.median / r.median).toFixed(2)}×`,
        // A frame at 60 Hz; a phone-speed CPU gets four.
        target: conditions.cpuSlowdown === 1 ? '≤ 16 ms' : '≤ 64 ms',
        met: l.median <= 16 * conditions.cpuSlowdown && w.median <= 16 * conditions.cpuSlowdown,
      });
    }
    return rows;
  } finally {
    await browser.close();
  }
}
