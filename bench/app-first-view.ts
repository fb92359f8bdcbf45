import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FIXTURE_IDS } from '../src/catalogue/demo-fixtures.ts';
import { playlistPageSchema } from '../src/shared/catalogue-schema.ts';
import type { BenchOptions } from './catalogue-paging.ts';
import { FIRST_ROW_PROBE, launchChromium, ROW_SELECTOR } from './browser.ts';
import { startExplorer } from './explorer.ts';
import { formatSpread, median, spread } from './stats.ts';
import type { BenchRow } from './table.ts';

// Bench 5: from navigation to the first row in the DOM, for a deep link to the 5,000-video playlist
// opened in a fresh browser profile (cold HTTP cache), against the floor: a plain server-rendered
// HTML page of the same 100 rows from the same machine.

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

async function startReferencePage(explorerUrl: string): Promise<{ url: string; server: Server }> {
  const page = playlistPageSchema.parse(
    await (await fetch(`${explorerUrl}/api/v1/playlist?id=${FIXTURE_IDS.playlist5000}`)).json(),
  );
  const rows = page.items
    .map(
      (item) =>
        `<li aria-posinset="${item.index}"><img src="${explorerUrl}${escapeHtml(item.thumbnails.at(-1)?.url ?? '')}" width="168" height="94" alt="" loading="lazy">` +
        `<a href="https://www.youtube.com/watch?v=${item.id}">${escapeHtml(item.title)}</a> ${escapeHtml(item.channelTitle)} · ${escapeHtml(item.viewsText)} · ${escapeHtml(item.publishedText)}</li>`,
    )
    .join('');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(page.info?.title ?? '')}</title></head><body><h1>${escapeHtml(page.info?.title ?? '')}</h1><ol>${rows}</ol></body></html>`;
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end(html);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server };
}

export async function benchAppFirstView(
  options: BenchOptions & { samples: number },
): Promise<BenchRow[]> {
  const explorer = await startExplorer();
  const reference = await startReferencePage(explorer.url);
  const browser = await launchChromium();
  const measure = async (url: string) => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(FIRST_ROW_PROBE);
    const page = await context.newPage();
    await page.goto(url);
    await page.waitForSelector(ROW_SELECTOR);
    const ms = (await page.evaluate(
      () => (window as unknown as { __firstRow: number }).__firstRow,
    )) as number;
    await context.close();
    return ms;
  };
  try {
    const appUrl = `${explorer.url}/playlist/${FIXTURE_IDS.playlist5000}`;
    await measure(appUrl); // the server's first answer warms its page cache, as for any later visitor
    const app: number[] = [];
    const floor: number[] = [];
    const ratios: number[] = [];
    for (let round = 0; round < options.rounds; round++) {
      const a: number[] = [];
      const f: number[] = [];
      for (let i = 0; i < options.samples; i++) {
        f.push(await measure(reference.url));
        a.push(await measure(appUrl));
      }
      app.push(median(a));
      floor.push(median(f));
      ratios.push(median(a) / median(f));
    }
    const r = spread(ratios);
    return [
      {
        bench: '5',
        measure: 'app, first view: navigation → first row (deep link, cold profile)',
        figure: formatSpread(spread(app), 0, ' ms'),
        reference: `server-rendered HTML ${formatSpread(spread(floor), 0, ' ms')}`,
        ratio: formatSpread(r, 2, '×'),
        target: '≤ 2×',
        met: r.median <= 2,
      },
    ];
  } finally {
    await browser.close();
    reference.server.close();
    await explorer.stop();
  }
}
