import { FIXTURE_IDS } from '../src/catalogue/demo-fixtures.ts';
import { launchChromium, ROW_SELECTOR } from './browser.ts';
import { startExplorer } from './explorer.ts';
import type { BenchRow } from './table.ts';

// Bench 6: scroll the 5,000-video playlist from top to bottom at a steady speed, as a person
// dragging the scrollbar would, and watch what it costs: rows in the DOM, long tasks, the heap once
// all 5,000 are loaded, and how often the user hit the end of what was loaded.

const LONG_TASKS = `
  window.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) window.__longTasks.push(entry.duration);
  }).observe({ type: 'longtask', buffered: true });
`;

interface ScrollReport {
  maxRows: number;
  viewportRows: number;
  stalls: number;
  reachedEnd: boolean;
  seconds: number;
}

export async function benchAppScrolling(options: {
  pixelsPerSecond: number;
  maxSeconds: number;
}): Promise<BenchRow[]> {
  const explorer = await startExplorer();
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(LONG_TASKS);
    const page = await context.newPage();
    await page.goto(`${explorer.url}/playlist/${FIXTURE_IDS.playlist5000}`);
    await page.waitForSelector(ROW_SELECTOR);
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
            if (atBottom && !lastLoaded && !stalled) stalls++;
            stalled = atBottom && !lastLoaded;
            const done = atBottom && lastLoaded;
            if (done || now - started > maxSeconds * 1000) {
              resolve({
                maxRows,
                viewportRows,
                stalls,
                reachedEnd: done,
                seconds: (now - started) / 1000,
              });
            } else requestAnimationFrame(step);
          };
          requestAnimationFrame(step);
        }),
      { selector: ROW_SELECTOR, speed: options.pixelsPerSecond, maxSeconds: options.maxSeconds },
    )) as ScrollReport;
    const longTasks = (await page.evaluate(
      () => (window as unknown as { __longTasks: number[] }).__longTasks,
    )) as number[];
    const cdp = await context.newCDPSession(page);
    await cdp.send('HeapProfiler.collectGarbage');
    const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
    const heapMb = heap.usedSize / 1024 / 1024;
    const longest = longTasks.length ? Math.max(...longTasks) : 0;
    const over50 = longTasks.filter((d) => d > 50).length;
    const rowBound = report.viewportRows + 12; // two overscans of 5, and partial rows
    const scope = report.reachedEnd ? 'all 5,000' : `partial run, ${report.seconds.toFixed(0)} s`;
    return [
      {
        bench: '6',
        measure: `app, scrolling at ${options.pixelsPerSecond} px/s (${scope}): max rows in the DOM`,
        figure: String(report.maxRows),
        reference: `${report.viewportRows} rows fit the viewport; 5,000 in the list`,
        ratio: `${(report.maxRows / report.viewportRows).toFixed(2)}× viewport`,
        target: `≤ ${rowBound} (viewport-bound)`,
        met: report.maxRows <= rowBound,
      },
      {
        bench: '6',
        measure: 'app, scrolling: long tasks (> 50 ms) and the longest',
        figure: `${over50} over 50 ms; longest ${longest.toFixed(0)} ms`,
        reference: '100 ms budget',
        ratio: `${(longest / 100).toFixed(2)}× budget`,
        target: 'none over 100 ms',
        met: longest <= 100,
      },
      {
        bench: '6',
        measure: `app, scrolling: JS heap after GC (${scope})`,
        figure: `${heapMb.toFixed(1)} MB`,
        reference: '50 MB budget',
        ratio: `${(heapMb / 50).toFixed(2)}× budget`,
        target: '< 50 MB',
        met: heapMb < 50 && report.reachedEnd,
      },
      {
        bench: '6',
        measure: 'app, scrolling: times the end was reached before its page',
        figure: String(report.stalls),
        reference: '50 pages fetched',
        ratio: '–',
        target: '0',
        met: report.stalls === 0 && report.reachedEnd,
      },
    ];
  } finally {
    await browser.close();
    await explorer.stop();
  }
}
