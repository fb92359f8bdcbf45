import type { Browser } from '@playwright/test';
import { FIXTURE_IDS } from '../src/catalogue/demo-fixtures.ts';
import { launchChromium, ROW_SELECTOR } from './browser.ts';
import { startExplorer } from './explorer.ts';
import { labelled, profileEnv, slowCpu, type Conditions } from './latency-profiles.ts';
import type { BenchRow } from './table.ts';

// Bench 6: scroll the 5,000-video playlist from top to bottom at a steady speed, once the app has
// taken over the server's page, and watch what it costs: rows in the DOM, long tasks and layout
// shifts while scrolling, the heap once all 5,000 are loaded, and how often the reader met rows
// whose page had not arrived yet (placeholders on screen). The same fling again with every
// thumbnail request blocked is the long tasks' reference: the difference is what the images
// cost the main thread (decoding, rasterising), apart from what the rows and pages cost. Under
// each latency profile and page speed (latency-profiles.ts), each on a fresh explorer: the pages
// load while the reader scrolls. With the page's CPU slowed 4×, as on a mid-range phone, a task
// may take up to 100 ms (Lighthouse's mobile profile), and the reader must still never wait.

const OBSERVERS = `
  window.__longTasks = [];
  window.__shifts = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      window.__longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      if (!entry.hadRecentInput) window.__shifts.push({ start: entry.startTime, value: entry.value });
  }).observe({ type: 'layout-shift', buffered: true });
`;

/** Blocked in the browser's network stack (CDP), so the page pays nothing for the block. */
const THUMBNAIL_PATTERN = '*/thumbnails/*';

interface ScrollReport {
  maxRows: number;
  viewportRows: number;
  stalls: number;
  reachedEnd: boolean;
  seconds: number;
  started: number;
}

interface Fling {
  report: ScrollReport;
  /** Durations of the long tasks while scrolling. */
  longTasks: number[];
  shift: number;
  heapMb: number;
  imagesLoaded: number;
}

async function fling(
  browser: Browser,
  url: string,
  options: {
    pixelsPerSecond: number;
    maxSeconds: number;
    cpuSlowdown: Conditions['cpuSlowdown'];
    blockThumbnails: boolean;
  },
): Promise<Fling> {
  // A context of its own: its own HTTP cache, so no run reuses another's images.
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    await context.addInitScript(OBSERVERS);
    const page = await context.newPage();
    await slowCpu(context, page, options.cpuSlowdown);
    const cdp = await context.newCDPSession(page);
    if (options.blockThumbnails) {
      await cdp.send('Network.enable');
      await cdp.send('Network.setBlockedURLs', { urls: [THUMBNAIL_PATTERN] });
    }
    await page.goto(url);
    await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
    // And its rows: a cold explorer may have sent the view loading (FIRST_PAINT_WAIT_MS), its
    // rows then arriving after hydration.
    await page.waitForSelector(`${ROW_SELECTOR} a`, { state: 'attached' });
    const report = (await page.evaluate(
      ({ selector, speed, maxSeconds }) =>
        new Promise<ScrollReport>((resolve) => {
          const rows = () => document.querySelectorAll(selector);
          const first = rows()[0] as HTMLElement;
          const rowHeight = first.getBoundingClientRect().height || 80;
          const viewportRows = Math.ceil(window.innerHeight / rowHeight) + 1;
          let maxRows = 0;
          let stalls = 0;
          let stalled = false;
          let last = performance.now();
          const started = last;
          const step = (now: number) => {
            window.scrollBy(0, (speed * (now - last)) / 1000);
            last = now;
            maxRows = Math.max(maxRows, rows().length);
            const atBottom =
              window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2;
            const lastLoaded = document.querySelector(`${selector}[aria-posinset="5000"]`) !== null;
            // A placeholder (a row with no link yet) on screen: the reader outran its page.
            const waiting = [...rows()].some((row) => {
              const rect = row.getBoundingClientRect();
              return rect.bottom > 0 && rect.top < window.innerHeight && !row.querySelector('a');
            });
            if (waiting && !stalled) stalls++;
            stalled = waiting;
            const done = atBottom && lastLoaded;
            if (done || now - started > maxSeconds * 1000) {
              resolve({
                maxRows,
                viewportRows,
                stalls,
                reachedEnd: done,
                seconds: (now - started) / 1000,
                started,
              });
            } else requestAnimationFrame(step);
          };
          requestAnimationFrame(step);
        }),
      { selector: ROW_SELECTOR, speed: options.pixelsPerSecond, maxSeconds: options.maxSeconds },
    )) as ScrollReport;
    const observed = (await page.evaluate(() => {
      const w = window as unknown as {
        __longTasks: { start: number; duration: number }[];
        __shifts: { start: number; value: number }[];
      };
      const images = performance
        .getEntriesByType('resource')
        .filter(
          (e) =>
            e.name.includes('/thumbnails/') &&
            (e as PerformanceResourceTiming).responseStatus === 200,
        );
      return { longTasks: w.__longTasks, shifts: w.__shifts, imagesLoaded: images.length };
    })) as {
      longTasks: { start: number; duration: number }[];
      shifts: { start: number; value: number }[];
      imagesLoaded: number;
    };
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
    return {
      report,
      // While scrolling only: loading and hydrating the page are bench 5's subject.
      longTasks: observed.longTasks.filter((t) => t.start >= report.started).map((t) => t.duration),
      shift: observed.shifts
        .filter((s) => s.start >= report.started)
        .reduce((sum, s) => sum + s.value, 0),
      heapMb: heap.usedSize / 1024 / 1024,
      imagesLoaded: observed.imagesLoaded,
    };
  } finally {
    await context.close();
  }
}

const longTaskText = (tasks: number[], budget: number) => {
  const over = tasks.filter((d) => d > budget).length;
  const longest = tasks.length ? Math.max(...tasks) : 0;
  return { over, longest, text: `${over} over ${budget} ms; longest ${longest.toFixed(0)} ms` };
};

export async function benchAppScrolling(options: {
  pixelsPerSecond: number;
  maxSeconds: number;
  conditions: readonly Conditions[];
}): Promise<BenchRow[]> {
  const browser = await launchChromium();
  try {
    const rows: BenchRow[] = [];
    for (const conditions of options.conditions)
      rows.push(...(await flingRows(browser, options, conditions)));
    return rows;
  } finally {
    await browser.close();
  }
}

/** The fling and its reference, each on a fresh explorer (cold pages, like a reader's first). */
async function flingOnFreshExplorer(
  browser: Browser,
  options: { pixelsPerSecond: number; maxSeconds: number },
  conditions: Conditions,
  blockThumbnails: boolean,
): Promise<Fling> {
  const explorer = await startExplorer(undefined, profileEnv(conditions.profile));
  try {
    const url = `${explorer.url}/playlist/${FIXTURE_IDS.playlist5000}`;
    return await fling(browser, url, {
      ...options,
      cpuSlowdown: conditions.cpuSlowdown,
      blockThumbnails,
    });
  } finally {
    await explorer.stop();
  }
}

async function flingRows(
  browser: Browser,
  options: { pixelsPerSecond: number; maxSeconds: number },
  conditions: Conditions,
): Promise<BenchRow[]> {
  const measured = await flingOnFreshExplorer(browser, options, conditions, false);
  const blocked = await flingOnFreshExplorer(browser, options, conditions, true);
  const { report, shift, heapMb } = measured;
  const budget = conditions.cpuSlowdown === 1 ? 50 : 100;
  const tasks = longTaskText(measured.longTasks, budget);
  const reference = longTaskText(blocked.longTasks, budget);
  const rowBound = report.viewportRows + 12; // two overscans of 5, and partial rows
  const scope = report.reachedEnd ? 'all 5,000' : `partial run, ${report.seconds.toFixed(0)} s`;
  const signed = (n: number, unit = '') => `${n >= 0 ? '+' : '−'}${Math.abs(n).toFixed(0)}${unit}`;
  return [
    {
      bench: '6',
      measure: labelled(
        `app, scrolling at ${options.pixelsPerSecond} px/s (${scope}): max rows in the DOM`,
        conditions,
      ),
      figure: String(report.maxRows),
      reference: `${report.viewportRows} rows fit the viewport; 5,000 in the list`,
      ratio: `${(report.maxRows / report.viewportRows).toFixed(2)}× viewport`,
      target: `≤ ${rowBound} (viewport-bound)`,
      met: report.maxRows <= rowBound,
    },
    {
      bench: '6',
      measure: labelled(
        `app, scrolling: long tasks (> ${budget} ms) and the longest (${measured.imagesLoaded} thumbnails loaded)`,
        conditions,
      ),
      figure: tasks.text,
      reference: `the same fling, thumbnails blocked (${blocked.imagesLoaded} loaded): ${reference.text}`,
      ratio: `${signed(tasks.over - reference.over)} tasks; longest ${signed(tasks.longest - reference.longest, ' ms')}`,
      target: `none over ${budget} ms`,
      met: tasks.longest <= budget,
    },
    {
      bench: '6',
      measure: labelled('app, scrolling: layout shift (sum of shifts while scrolling)', conditions),
      figure: shift.toFixed(4),
      reference: 'a page arriving moves nothing',
      ratio: '–',
      target: '0',
      met: shift === 0,
    },
    {
      bench: '6',
      measure: labelled(`app, scrolling: JS heap after GC (${scope})`, conditions),
      figure: `${heapMb.toFixed(1)} MB`,
      reference: '50 MB budget',
      ratio: `${(heapMb / 50).toFixed(2)}× budget`,
      target: '< 50 MB',
      met: heapMb < 50 && report.reachedEnd,
    },
    {
      bench: '6',
      measure: labelled('app, scrolling: times rows were on screen before their page', conditions),
      figure: String(report.stalls),
      reference: '50 pages fetched',
      ratio: '–',
      target: '0',
      met: report.stalls === 0 && report.reachedEnd,
    },
  ];
}
