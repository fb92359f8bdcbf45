import type { Browser } from '@playwright/test';
import { setTimeout as sleep } from 'node:timers/promises';
import { FIXTURE_IDS } from '../src/catalogue/demo-fixtures.ts';
import { familyTotal, SCRAPE_TOKEN, scrapeSamples } from '../src/test-support/metrics-scrape.ts';
import { DRAG_TARGET, dragTo, openPlaylist } from './app-drag.ts';
import { launchChromium, ROW_SELECTOR } from './browser.ts';
import { labelled, profileEnv, type LatencyProfile } from './latency-profiles.ts';
import { withFreshExplorer } from './raw-chain.ts';
import { formatSpread, median, spread } from './stats.ts';
import type { BenchRow } from './table.ts';

// What chain warming (src/server/warming/) saves a reader and what it costs in lookups: the same
// reading of the 5,000-video playlist (50 pages) on a fresh explorer with warming at its default
// share and on one with it off, in the same round, alternating which goes first, and the upstream
// calls each explorer made by the time any warming had ended (from its /metrics).
//
// - Bench 9's drag to item 4,000, right after the view has hydrated (what bench 9 times: the
//   warmer's head start is only the time the app takes to load), and after reading the first
//   page for a few seconds, as a person does before dragging.
// - A deep link, `?index=2345`: from navigation to item 2,345 shown. The app follows the chain
//   once it has hydrated; the warmer from the moment the view was answered.

const LIST_PAGES = 50;
const DEEP_INDEX = 2345;

const explorerEnv = (profile: LatencyProfile, warming: boolean) => ({
  ...profileEnv(profile),
  METRICS_TOKEN: SCRAPE_TOKEN,
  // The default share (src/server/config.ts), or off.
  CHAIN_WARM_SHARE: warming ? '0.1' : '0',
});

/** The upstream calls an explorer has made, once it is warming nothing. */
async function lookupsSpent(url: string): Promise<number> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const samples = await scrapeSamples(url);
    if ((samples.get('explorer_chain_warm_lists') ?? 0) === 0)
      return familyTotal(samples, 'explorer_upstream_calls_total');
    if (Date.now() > deadline) throw new Error('warming did not end within 2 minutes');
    await sleep(100);
  }
}

interface Reading {
  ms: number;
  lookups: number;
}

/** Each round measures with and without warming, alternating which goes first. */
async function pairs(
  rounds: number,
  measure: (warming: boolean) => Promise<Reading>,
): Promise<{ on: Reading[]; off: Reading[] }> {
  const on: Reading[] = [];
  const off: Reading[] = [];
  for (let round = 0; round < rounds; round++) {
    const warmFirst = round % 2 === 0;
    if (warmFirst) on.push(await measure(true));
    off.push(await measure(false));
    if (!warmFirst) on.push(await measure(true));
  }
  return { on, off };
}

function comparison(
  bench: string,
  measure: string,
  { on, off }: { on: Reading[]; off: Reading[] },
  target: number,
): BenchRow {
  const ratio = median(on.map((r, i) => r.ms / off[i]!.ms));
  return {
    bench,
    measure,
    figure: formatSpread(spread(on.map((r) => r.ms)), 0, ' ms'),
    reference: `the same without warming ${formatSpread(spread(off.map((r) => r.ms)), 0, ' ms')}`,
    ratio: `${ratio.toFixed(2)}× (median of pairs)`,
    target: `≤ ${target}×`,
    met: ratio <= target,
  };
}

function lookupsRow(
  bench: string,
  measure: string,
  { on, off }: { on: Reading[]; off: Reading[] },
): BenchRow {
  const withWarming = spread(on.map((r) => r.lookups));
  const without = spread(off.map((r) => r.lookups));
  return {
    bench,
    measure,
    figure: `${formatSpread(withWarming)} with warming`,
    reference: `${formatSpread(without)} without; the list has ${LIST_PAGES} pages`,
    ratio: `${(withWarming.median / without.median).toFixed(2)}×`,
    // Warming reads each page once, merged with the reader's own requests: never more calls
    // than the list has pages.
    target: `≤ ${LIST_PAGES}`,
    met: withWarming.max <= LIST_PAGES,
  };
}

export async function benchDragWarming(options: {
  rounds: number;
  profile: LatencyProfile;
  /** How long the reader looks at the first page before dragging, each a row. */
  readingMs: readonly number[];
}): Promise<BenchRow[]> {
  const { rounds, profile } = options;
  const browser = await launchChromium();
  const rows: BenchRow[] = [];
  try {
    let last: { on: Reading[]; off: Reading[] } | undefined;
    for (const readingMs of options.readingMs) {
      const measured = await pairs(rounds, (warming) =>
        withFreshExplorer(
          async (url) => {
            const view = await openPlaylist(browser, url, 1);
            if (readingMs > 0) await sleep(readingMs);
            const ms = await dragTo(view.page);
            await view.close();
            return { ms, lookups: await lookupsSpent(url) };
          },
          explorerEnv(profile, warming),
        ),
      );
      const when =
        readingMs === 0
          ? 'right after the first view'
          : `after ${readingMs / 1000} s on the first page`;
      rows.push(
        comparison(
          '9',
          labelled(
            `app, drag to item ${DRAG_TARGET.toLocaleString('en')} ${when}, with chain warming`,
            { profile },
          ),
          measured,
          // Right after the view, warming's head start is the app's loading: it must not cost
          // the reader; given a few seconds, the pages are there.
          readingMs === 0 ? 1 : 0.5,
        ),
      );
      last = measured;
    }
    if (last !== undefined) {
      rows.push(
        lookupsRow(
          '9',
          labelled(
            `upstream calls for that drag, warming to the list's end (without: the ${DRAG_TARGET / 100} pages read)`,
            { profile },
          ),
          last,
        ),
      );
    }
    return rows;
  } finally {
    await browser.close();
  }
}

/** Navigation to `?index=2345` until its row is shown, loaded (ms from navigation start). */
async function openDeepLink(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const selector = `${ROW_SELECTOR}[aria-posinset="${DEEP_INDEX}"] a`;
  await context.addInitScript(`
    (() => {
      const observer = new MutationObserver(() => {
        if (document.querySelector(${JSON.stringify(selector)})) {
          window.__shown = performance.now();
          observer.disconnect();
        }
      });
      observer.observe(document, { childList: true, subtree: true });
    })();
  `);
  const page = await context.newPage();
  await page.goto(`${url}/playlist/${FIXTURE_IDS.playlist5000}?index=${DEEP_INDEX}`);
  await page.waitForSelector(selector, { timeout: 120_000 });
  const ms = await page.evaluate(() => (window as unknown as { __shown: number }).__shown);
  await context.close();
  return ms;
}

export async function benchDeepLinkWarming(options: {
  rounds: number;
  profile: LatencyProfile;
}): Promise<BenchRow[]> {
  const { rounds, profile } = options;
  const browser = await launchChromium();
  try {
    const measured = await pairs(rounds, (warming) =>
      withFreshExplorer(
        async (url) => ({
          ms: await openDeepLink(browser, url),
          lookups: await lookupsSpent(url),
        }),
        explorerEnv(profile, warming),
      ),
    );
    return [
      comparison(
        '7',
        labelled(
          `app, deep link ?index=${DEEP_INDEX}: navigation → item ${DEEP_INDEX.toLocaleString('en')} shown, with chain warming (cold server cache)`,
          { profile },
        ),
        measured,
        // The warmer starts when the view is answered, the app's own chain once it has loaded,
        // and then both follow the same chain at the upstream's pace: warming must not slow the
        // reader, beyond what rounds of the very same reading differ by (about 5% between the
        // fastest and the slowest round without warming).
        1.05,
      ),
      lookupsRow(
        '7',
        labelled(
          `upstream calls for that deep link, warming to the list's end (without: the ${Math.ceil(DEEP_INDEX / 100)} pages read)`,
          { profile },
        ),
        measured,
      ),
    ];
  } finally {
    await browser.close();
  }
}
