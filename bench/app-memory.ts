import type { CDPSession } from '@playwright/test';
import { FIXTURE_IDS } from '../src/catalogue/demo-fixtures.ts';
import { launchChromium, ROW_SELECTOR } from './browser.ts';
import { startExplorer } from './explorer.ts';
import type { BenchRow } from './table.ts';

// Memory of a long scroll in the browser: after a forced garbage collection, what the renderer
// still holds (JS heap, DOM nodes, listeners) at the start, at row 5,000 and every 10,000 rows.
// A virtual list draws a few dozen rows, so none of these should grow with how far the reader
// has gone.

export interface MemoryPoint {
  row: number;
  heapMb: number;
  nodes: number;
  listeners: number;
  documents: number;
}

async function measure(cdp: CDPSession, row: number): Promise<MemoryPoint> {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const counters = (await cdp.send('Memory.getDOMCounters')) as {
    documents: number;
    nodes: number;
    jsEventListeners: number;
  };
  const heap = (await cdp.send('Runtime.getHeapUsage')) as { usedSize: number };
  return {
    row,
    heapMb: heap.usedSize / 2 ** 20,
    nodes: counters.nodes,
    listeners: counters.jsEventListeners,
    documents: counters.documents,
  };
}

/**
 * Scrolls the list at `path` to row `rows`, a screen at a time and waiting for loaded rows on
 * screen, measuring at the start, at row 5,000 and every `every` rows.
 */
export async function scrollMemory(
  baseUrl: string,
  path: string,
  rows: number,
  every = 10_000,
  log: (line: string) => void = () => undefined,
): Promise<MemoryPoint[]> {
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await page.goto(`${baseUrl}${path}`);
    await page.waitForSelector('html[data-hydrated]', { state: 'attached' });
    await page.waitForSelector(`${ROW_SELECTOR} a`, { state: 'attached' });
    const points = [await measure(cdp, 0)];
    log(JSON.stringify(points[0]));
    const marks = [
      Math.min(5_000, rows),
      rows,
      ...Array.from({ length: Math.floor(rows / every) }, (_, i) => (i + 1) * every),
    ]
      .filter((mark, i, all) => mark <= rows && all.indexOf(mark) === i)
      .sort((a, b) => a - b);
    for (const mark of marks) {
      // A screen a frame, as a fast reader flings: the rows on the way are drawn (the overscan
      // overlaps screens) and dropped again. A reader who outruns the pages waits on
      // placeholders until theirs come.
      const reached = await page.evaluate(
        ({ selector, mark }) =>
          new Promise<number>((resolve) => {
            // A channel's list grows as its pages come: the bottom of the page is its end only
            // once no row has come for a while. Rows, not the page's height, which stops growing
            // once the list is drawn to scale (list-scale.ts).
            let length = 0;
            let grewAt = performance.now();
            const step = () => {
              const rows = [...document.querySelectorAll(selector)].filter((row) => {
                const rect = row.getBoundingClientRect();
                return rect.bottom > 0 && rect.top < window.innerHeight;
              });
              const top = Number(rows[0]?.getAttribute('aria-posinset') ?? 0);
              const loaded = rows.every((row) => row.querySelector('a'));
              const atEnd =
                window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 2;
              const now = performance.now();
              const setSize = Number(rows[0]?.getAttribute('aria-setsize') ?? 0);
              if (setSize !== length) {
                length = setSize;
                grewAt = now;
              }
              if (top >= mark || (atEnd && loaded && now - grewAt > 10_000)) return resolve(top);
              if (loaded) window.scrollBy(0, window.innerHeight);
              requestAnimationFrame(step);
            };
            requestAnimationFrame(step);
          }),
        { selector: ROW_SELECTOR, mark },
      );
      const point = await measure(cdp, reached);
      points.push(point);
      log(JSON.stringify(point));
    }
    return points;
  } finally {
    await browser.close();
  }
}

const mb = (value: number) => `${value.toFixed(1)} MB`;
const count = (value: number) => Math.round(value).toLocaleString('en-US');

/** Bench 19's rows for one list: figures at its last mark against row 5,000 and the start. */
function rowsOf(name: string, points: readonly MemoryPoint[], every: number): BenchRow[] {
  const start = points[0]!;
  const end = points.at(-1)!;
  // Row 5,000's point (a short run's first mark): the reference the end is held to.
  const early = points.find((point) => point.row >= 5_000) ?? points[1] ?? start;
  const per = (key: 'heapMb' | 'nodes') =>
    end.row > early.row ? ((end[key] - early[key]) * every) / (end.row - early.row) : 0;
  const at = `after GC at row ${count(end.row)}`;
  return [
    {
      bench: '19',
      measure: `${name}: JS heap ${at}`,
      figure: mb(end.heapMb),
      reference: `${mb(early.heapMb)} at row ${count(early.row)}`,
      ratio: `${(end.heapMb / early.heapMb).toFixed(2)}×`,
      target: '≤ 64 MB and ≤ 1.5× row 5,000',
      met: end.heapMb <= 64 && end.heapMb <= 1.5 * early.heapMb,
    },
    {
      bench: '19',
      measure: `${name}: DOM nodes held by the renderer ${at}`,
      figure: count(end.nodes),
      reference: `${count(start.nodes)} at the start`,
      ratio: `${(end.nodes / start.nodes).toFixed(2)}×`,
      target: '≤ 3,000',
      met: end.nodes <= 3_000,
    },
    {
      bench: '19',
      measure: `${name}: event listeners ${at}`,
      figure: count(end.listeners),
      reference: `${count(start.listeners)} at the start`,
      ratio: `${(end.listeners / start.listeners).toFixed(2)}×`,
      target: '≤ 2× start',
      met: end.listeners <= 2 * start.listeners,
    },
    {
      bench: '19',
      measure: `${name}: growth per ${count(every)} rows after row ${count(early.row)}`,
      figure: `heap ${per('heapMb') >= 0 ? '+' : ''}${mb(per('heapMb'))}, DOM ${per('nodes') >= 0 ? '+' : ''}${count(per('nodes'))} nodes`,
      reference: `${count(early.row)} → ${count(end.row)}`,
      ratio: '–',
      target: '–',
      met: null,
    },
  ];
}

/**
 * Bench 19: the 300,000-video channel scrolled through `channelRows` rows and the 20,000-item
 * playlist to its end, each in a fresh browser on one explorer.
 */
export async function benchAppMemory(options: {
  channelRows: number;
  playlistRows: number;
  every: number;
}): Promise<BenchRow[]> {
  const explorer = await startExplorer();
  try {
    const rows: BenchRow[] = [];
    const channel = await scrollMemory(
      explorer.url,
      `/channel/${FIXTURE_IDS.hugeChannel}`,
      options.channelRows,
      options.every,
    );
    rows.push(...rowsOf('300,000-video channel', channel, options.every));
    const playlist = await scrollMemory(
      explorer.url,
      `/playlist/${FIXTURE_IDS.playlist20000}`,
      options.playlistRows,
      options.every,
    );
    rows.push(...rowsOf('20,000-item playlist', playlist, options.every));
    return rows;
  } finally {
    await explorer.stop();
  }
}

if (import.meta.main) {
  const explorer = await startExplorer();
  try {
    await scrollMemory(
      explorer.url,
      process.argv[3] ?? `/channel/${FIXTURE_IDS.hugeChannel}`,
      Number(process.argv[2] ?? 20_000),
      10_000,
      console.log,
    );
  } finally {
    await explorer.stop();
  }
}
