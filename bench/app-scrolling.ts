import { FIXTURE_IDS } from '../src/catalogue/demo-fixtures.ts';
import { launchChromium, ROW_SELECTOR } from './browser.ts';
import { startExplorer } from './explorer.ts';
import { labelled, profileEnv, slowCpu, type Conditions } from './latency-profiles.ts';
import type { BenchRow } from './table.ts';

// Bench 6: scroll the 5,000-video playlist from top to bottom at a steady speed, once the app has
// taken over the server's page, and watch what it costs: rows in the DOM, long tasks and layout
// shifts while scrolling, the heap once all 5,000 are loaded, and how often the reader met rows
// whose page had not arrived yet (placeholders on screen). Under each latency profile and page
// speed (latency-profiles.ts), each on a fresh explorer: the pages load while the reader scrolls.

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

interface ScrollReport {
  maxRows: number;
  viewportRows: number;
  stalls: number;
  reachedEnd: boolean;
  seconds: number;
  started: number;
}

export async function benchAppScrolling(options: {
  pixelsPerSecond: number;
  maxSeconds: number;
  conditions: readonly Conditions[];
}): Promise<BenchRow[]> {
  const browser = await launchChromium();
  try {
    const rows: BenchRow[] = [];
    for (const conditions of options.conditions)
      rows.push(...(await scrollOnce(browser, options, conditions)));
    return rows;
  } finally {
    await browser.close();
  }
}

async function scrollOnce(
  browser: Awaited<ReturnType<typeof launchChromium>>,
  options: { pixelsPerSecond: number; maxSeconds: number },
  conditions: Conditions,
): Promise<BenchRow[]> {
  const explorer = await startExplorer(undefined, profileEnv(conditions.profile));
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(OBSERVERS);
    const page = await context.newPage();
    await slowCpu(context, page, conditions.cpuSlowdown);
    await page.goto(`${explorer.url}/playlist/${FIXTURE_IDS.playlist5000}`);
    await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
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
      return { longTasks: w.__longTasks, shifts: w.__shifts };
    })) as {
      longTasks: { start: number; duration: number }[];
      shifts: { start: number; value: number }[];
    };
    // While scrolling only: loading and hydrating the page are bench 5's subject.
    const longTasks = observed.longTasks
      .filter((t) => t.start >= report.started)
      .map((t) => t.duration);
    const shift = observed.shifts
      .filter((s) => s.start >= report.started)
      .reduce((sum, s) => sum + s.value, 0);
    const cdp = await context.newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
    const heapMb = heap.usedSize / 1024 / 1024;
    const longest = longTasks.length ? Math.max(...longTasks) : 0;
    const over50 = longTasks.filter((d) => d > 50).length;
    await context.close();
    const rowBound = report.viewportRows + 12; // two overscans of 5, and partial rows
    const scope = report.reachedEnd ? 'all 5,000' : `partial run, ${report.seconds.toFixed(0)} s`;
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
        measure: labelled('app, scrolling: long tasks (> 50 ms) and the longest', conditions),
        figure: `${over50} over 50 ms; longest ${longest.toFixed(0)} ms`,
        reference: '50 ms budget',
        ratio: `${(longest / 50).toFixed(2)}× budget`,
        target: 'none over 50 ms',
        met: longest <= 50,
      },
      {
        bench: '6',
        measure: labelled(
          'app, scrolling: layout shift (sum of shifts while scrolling)',
          conditions,
        ),
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
        measure: labelled(
          'app, scrolling: times rows were on screen before their page',
          conditions,
        ),
        figure: String(report.stalls),
        reference: '50 pages fetched',
        ratio: '–',
        target: '0',
        met: report.stalls === 0 && report.reachedEnd,
      },
    ];
  } finally {
    await explorer.stop();
  }
}
