import type { CDPSession, Page } from '@playwright/test';
import { expect, expectAccessible, IDS, ROWS, test } from './fixtures.ts';

// A long list scrolled far: the rows that left the window must leave the renderer too. What the
// renderer holds is counted after a forced garbage collection (Chromium's DOM counters count
// detached nodes still reachable from script), and the early rows are found again where they
// were when the reader comes back. The behaviour, on a thousand rows; bench 19 measures the
// figures over the 300,000-video channel and the 20,000-item playlist.

async function heldAfterGc(cdp: CDPSession): Promise<{ nodes: number; listeners: number }> {
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.send('HeapProfiler.collectGarbage');
  const counters = await cdp.send('Memory.getDOMCounters');
  return { nodes: counters.nodes, listeners: counters.jsEventListeners };
}

/** Flings the window down half a screen a frame, waiting on placeholders, to row `to`. */
function flingTo(page: Page, to: number): Promise<number> {
  return page.evaluate(
    ({ selector, to }) =>
      new Promise<number>((resolve) => {
        const step = () => {
          const rows = [...document.querySelectorAll(selector)].filter((row) => {
            const rect = row.getBoundingClientRect();
            return rect.bottom > 0 && rect.top < window.innerHeight;
          });
          const top = Number(rows[0]?.getAttribute('aria-posinset') ?? 0);
          if (top >= to) return resolve(top);
          if (rows.every((row) => row.querySelector('a')))
            window.scrollBy(0, window.innerHeight / 2);
          requestAnimationFrame(step);
        };
        requestAnimationFrame(step);
      }),
    { selector: ROWS, to },
  );
}

test('scrolling 1,000 rows of a long channel leaves no rows behind in the renderer', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(`/channel/${IDS.hugeChannel}`);
  const list = page.getByRole('feed', { name: 'Videos' });
  const first = list.locator(`${ROWS}[aria-posinset="1"]`);
  await expect(first.getByRole('link').first()).toBeVisible();
  const firstTop = await first.evaluate((row) => row.getBoundingClientRect().top + window.scrollY);
  const cdp = await page.context().newCDPSession(page);
  const start = await heldAfterGc(cdp);

  expect(await flingTo(page, 1_000)).toBeGreaterThanOrEqual(1_000);
  const far = await heldAfterGc(cdp);
  // Some 1,000 rows of about 15 nodes each were drawn on the way: held, they would be 15,000.
  expect(far.nodes, 'DOM nodes held after GC').toBeLessThan(start.nodes + 1_000);
  expect(far.listeners, 'listeners held after GC').toBeLessThanOrEqual(2 * start.listeners);

  await page.evaluate(() => window.scrollTo(0, 0));
  await expect(first.getByRole('link').first()).toBeVisible();
  expect(
    await first.evaluate((row) => row.getBoundingClientRect().top + window.scrollY),
    'the first row is where it was',
  ).toBe(firstTop);
  await expectAccessible(page);
});
