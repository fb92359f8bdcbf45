import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FIXTURE_IDS } from '../src/catalogue/demo-fixtures.ts';
import type { BenchOptions } from './catalogue-paging.ts';
import { FIRST_ROW_PROBE, launchChromium, ROW_SELECTOR } from './browser.ts';
import { startExplorer } from './explorer.ts';
import { formatSpread, median, spread } from './stats.ts';
import type { BenchRow } from './table.ts';

// Bench 5: from navigation to the first row on screen, for a link to the 5,000-video playlist
// opened in a fresh browser profile (cold HTTP cache), against the floor: the very HTML the
// explorer sends for it, with its scripts taken out, served as a static file from the same
// machine. Beside it, the time until the app has hydrated that markup (links navigate in the app,
// the list scrolls virtually).

/** The explorer's HTML for `url` without scripts or script preloads; its other files from the explorer. */
async function staticCopy(explorerUrl: string, path: string): Promise<string> {
  const html = await (await fetch(`${explorerUrl}${path}`)).text();
  return html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '')
    .replace(/<link rel="modulepreload"[^>]*>/g, '')
    .replace('<head>', `<head><base href="${explorerUrl}/">`);
}

async function startReferencePage(html: string): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

/** Injected before any page script: when the app marks itself hydrated. */
const HYDRATED_PROBE = `
  new MutationObserver((_, observer) => {
    if (document.documentElement.dataset.hydrated === undefined) return;
    window.__hydrated = performance.now();
    observer.disconnect();
  }).observe(document.documentElement, { attributes: true, attributeFilter: ['data-hydrated'] });
`;

interface Timing {
  firstRow: number;
  hydrated: number | null;
}

export async function benchAppFirstView(
  options: BenchOptions & { samples: number },
): Promise<BenchRow[]> {
  const explorer = await startExplorer();
  const path = `/playlist/${FIXTURE_IDS.playlist5000}`;
  const appUrl = `${explorer.url}${path}`;
  // The explorer's first answer warms its page cache, as for any later visitor.
  const reference = await startReferencePage(await staticCopy(explorer.url, path));
  const browser = await launchChromium();
  const measure = async (url: string, app: boolean): Promise<Timing> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(FIRST_ROW_PROBE);
    await context.addInitScript(HYDRATED_PROBE);
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForSelector(ROW_SELECTOR);
    if (app) await page.waitForSelector('html[data-hydrated]');
    const timing = await page.evaluate(() => {
      const w = window as unknown as { __firstRow: number; __hydrated?: number };
      // On screen: the row is in the DOM and the page has painted (stylesheets are in).
      const paint = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0;
      return { firstRow: Math.max(w.__firstRow, paint), hydrated: w.__hydrated ?? null };
    });
    await context.close();
    return timing;
  };
  try {
    await measure(appUrl, true);
    const app: number[] = [];
    const hydrated: number[] = [];
    const floor: number[] = [];
    const ratios: number[] = [];
    for (let round = 0; round < options.rounds; round++) {
      const a: number[] = [];
      const h: number[] = [];
      const f: number[] = [];
      for (let i = 0; i < options.samples; i++) {
        f.push((await measure(reference.url, false)).firstRow);
        const timing = await measure(appUrl, true);
        a.push(timing.firstRow);
        h.push(timing.hydrated ?? Number.NaN);
      }
      app.push(median(a));
      hydrated.push(median(h));
      floor.push(median(f));
      ratios.push(median(a) / median(f));
    }
    const r = spread(ratios);
    const floorText = `same HTML, scripts removed, as a static file ${formatSpread(spread(floor), 0, ' ms')}`;
    return [
      {
        bench: '5',
        measure: 'app, first view: navigation → first row on screen (cold profile)',
        figure: formatSpread(spread(app), 0, ' ms'),
        reference: floorText,
        ratio: formatSpread(r, 2, '×'),
        target: '≤ 1.3×',
        met: r.median <= 1.3,
      },
      {
        bench: '5',
        measure: 'app, first view: navigation → hydrated (links and scrolling are the app’s)',
        figure: formatSpread(spread(hydrated), 0, ' ms'),
        reference: floorText,
        ratio: formatSpread(spread(hydrated.map((ms, i) => ms / floor[i]!)), 2, '×'),
        target: '–',
        met: null,
      },
    ];
  } finally {
    await browser.close();
    reference.server.close();
    await explorer.stop();
  }
}
