import { rmSync } from 'node:fs';
import { FIXTURE_IDS } from '../src/catalogue/demo-fixtures.ts';
import {
  assertStyled,
  buildWithReference,
  REFERENCE_FILE,
  startWithReference,
} from './app-first-view.ts';
import { launchChromium, ROW_SELECTOR } from './browser.ts';
import { labelled, type LatencyProfile } from './latency-profiles.ts';
import { rawChain } from './raw-chain.ts';
import { formatSpread, spread } from './stats.ts';
import type { BenchRow } from './table.ts';

// Bench 5, a deep link: `?index=2345` of the 5,000-video playlist opened on a cold explorer (its
// cache empty, chain warming at its default) with the upstream answering as a remote API does.
// Two things a person waits for, each against its floor:
//
// - the first paint (first contentful paint), against the very document the explorer sends for
//   that link, without its scripts, served as a static file by the same server: the server's
//   wait for the list's first page (and the render) is what separates them;
// - item 2,345 on screen, loaded, against a script in the same browser following the chain from
//   page 1 to page 24 as fast as it can, on another cold explorer: the 24 lookups no reader can
//   skip, since each continuation comes with the page before it.

const DEEP_INDEX = 2345;
const PATH = `/playlist/${FIXTURE_IDS.playlist5000}?index=${DEEP_INDEX}`;

interface Opened {
  paint: number;
  shown: number | null;
}

const PROBE = `
  (() => {
    const selector = ${JSON.stringify(`${ROW_SELECTOR}[aria-posinset="${DEEP_INDEX}"] a`)};
    const observer = new MutationObserver(() => {
      if (document.querySelector(selector)) {
        window.__shown = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(document, { childList: true, subtree: true });
  })();
`;

export async function benchDeepLink(options: {
  rounds: number;
  profile: LatencyProfile;
}): Promise<BenchRow[]> {
  const { rounds, profile } = options;
  const root = await buildWithReference(PATH);
  const browser = await launchChromium();
  /** Navigation to `path` in a fresh context; with `item`, until item 2,345 is shown. */
  const open = async (url: string, item: boolean): Promise<Opened> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      await context.addInitScript(PROBE);
      const page = await context.newPage();
      await page.goto(url);
      if (item)
        await page.waitForSelector(`${ROW_SELECTOR}[aria-posinset="${DEEP_INDEX}"] a`, {
          timeout: 120_000,
        });
      await page.waitForFunction(() => performance.getEntriesByName('first-contentful-paint')[0]);
      await assertStyled(page, url);
      return await page.evaluate(() => ({
        paint: performance.getEntriesByName('first-contentful-paint')[0]!.startTime,
        shown: (window as unknown as { __shown?: number }).__shown ?? null,
      }));
    } finally {
      await context.close();
    }
  };
  try {
    const paints: number[] = [];
    const staticPaints: number[] = [];
    const shown: number[] = [];
    const chains: number[] = [];
    for (let round = 0; round < rounds; round++) {
      const explorer = await startWithReference(root, profile);
      try {
        // The link first, on a server just started, as a reader meets one after a deploy: a
        // server given the time the reference takes would have settled whatever its start left
        // running (once, compressing the build on the thread pool renders need, 1.3 s).
        const app = await open(`${explorer.url}${PATH}`, true);
        paints.push(app.paint);
        shown.push(app.shown ?? Number.NaN);
        staticPaints.push((await open(`${explorer.url}/${REFERENCE_FILE}`, false)).paint);
      } finally {
        await explorer.stop();
      }
      const conditions = { profile, cpuSlowdown: 1 as const };
      chains.push(
        (await rawChain(browser, FIXTURE_IDS.playlist5000, DEEP_INDEX, conditions, true)).ms,
      );
    }
    const paintRatio = spread(paints.map((ms, i) => ms / staticPaints[i]!));
    const shownRatio = spread(shown.map((ms, i) => ms / chains[i]!));
    return [
      {
        bench: '5',
        measure: labelled(
          `deep link ?index=${DEEP_INDEX}, cold server: navigation → first contentful paint`,
          { profile },
        ),
        figure: formatSpread(spread(paints), 0, ' ms'),
        reference: `the same document without scripts, a static file ${formatSpread(spread(staticPaints), 0, ' ms')}`,
        ratio: formatSpread(paintRatio, 2, '×'),
        target: '≤ 1.5×',
        met: paintRatio.median <= 1.5,
      },
      {
        bench: '5',
        measure: labelled(
          `deep link ?index=${DEEP_INDEX}, cold server: navigation → item ${DEEP_INDEX.toLocaleString('en')} shown`,
          { profile },
        ),
        figure: formatSpread(spread(shown), 0, ' ms'),
        reference: `fetch loop from page 1 to its page (24 lookups) ${formatSpread(spread(chains), 0, ' ms')}`,
        ratio: formatSpread(shownRatio, 2, '×'),
        target: '≤ 1.2×',
        met: shownRatio.median <= 1.2,
      },
    ];
  } finally {
    await browser.close();
    rmSync(root, { recursive: true, force: true });
  }
}
