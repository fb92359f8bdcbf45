import type { Browser, Page } from '@playwright/test';
import { FIXTURE_IDS } from '../src/catalogue/demo-fixtures.ts';
import { FOLLOW_STORE_KEY, FOLLOW_STORE_VERSION } from '../src/app/following/follow-store.ts';
import { launchChromium } from './browser.ts';
import { startExplorer, type Explorer } from './explorer.ts';
import { labelled, profileEnv, type LatencyProfile } from './latency-profiles.ts';
import { formatSpread, median, spread } from './stats.ts';
import type { BenchRow } from './table.ts';

// Bench 17: the Following view with 50 followed lists (the big channel's first 50 playlists, of
// 0 to 5,000 items), in a fresh profile. Cold (a fresh explorer, nothing cached): navigation
// to the first list shown and to all 50 shown, beside the same 50 lists' first pages fetched
// directly by the same browser from another fresh explorer (all at once). Warm: Refresh, to
// every list shown again, beside the same 50 first pages fetched directly from the cache,
// which is what a refresh would cost without the batch (the target reads "one cached page"
// per list).

const LISTS = 50;

async function playlistsToFollow(): Promise<Array<{ id: string; title: string }>> {
  const explorer = await startExplorer();
  try {
    const lists: Array<{ id: string; title: string }> = [];
    let continuation: string | null = null;
    while (lists.length < LISTS) {
      const query = new URLSearchParams({ id: FIXTURE_IDS.bigChannel });
      if (continuation) query.set('continuation', continuation);
      const page = (await (
        await fetch(`${explorer.url}/api/v1/channel-playlists?${query}`)
      ).json()) as { items: Array<{ id: string; title: string }>; continuation: string | null };
      lists.push(...page.items.map(({ id, title }) => ({ id, title })));
      continuation = page.continuation;
      if (continuation === null) break;
    }
    return lists.slice(0, LISTS);
  } finally {
    await explorer.stop();
  }
}

/** A page on `explorer`'s origin whose storage follows `lists`. */
async function followingPage(browser: Browser, lists: Array<{ id: string; title: string }>) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const stored = {
    version: FOLLOW_STORE_VERSION,
    lists: lists.map((list) => ({ kind: 'playlist', ...list, followedAt: 0, seen: null })),
  };
  await context.addInitScript(([key, value]) => localStorage.setItem(key, value), [
    FOLLOW_STORE_KEY,
    JSON.stringify(stored),
  ] as const);
  await context.addInitScript(SHOWN_PROBE);
  return { context, page: await context.newPage() };
}

/**
 * Injected before the page's scripts: notes (in milliseconds since navigation) when the first
 * followed list is shown and when all are, each a list's card with its answer or its failure.
 * Read by the page's own clock, every 10 ms: the bench's polling cannot delay what it measures.
 */
const SHOWN_PROBE = `
  (() => {
    const seen = { first: 0, all: 0 };
    window.__shown = seen;
    const tick = () => {
      const cards = [...document.querySelectorAll('main ul > li')];
      const done = cards.filter((card) => !card.textContent.includes('Loading…')).length;
      if (cards.length > 0 && done >= 1 && !seen.first) seen.first = performance.now();
      if (cards.length > 0 && done === cards.length && !seen.all) seen.all = performance.now();
      if (!seen.all) setTimeout(tick, 10);
    };
    setTimeout(tick, 10);
  })();
`;

/**
 * When the first and the last list were shown, once all have been, counted from the moment
 * the view asked for them (its `/feeds/updates` request), as the reference's fetches are.
 */
async function shownTimes(page: Page): Promise<{ first: number; all: number }> {
  await page.waitForFunction(
    () => (window as unknown as { __shown: { all: number } }).__shown.all > 0,
    null,
    {
      timeout: 120_000,
    },
  );
  return page.evaluate(() => {
    const { first, all } = (window as unknown as { __shown: { first: number; all: number } })
      .__shown;
    const asked = performance
      .getEntriesByType('resource')
      .find((entry) => entry.name.includes('/feeds/updates'))!.startTime;
    return { first: first - asked, all: all - asked };
  });
}

/** Milliseconds from now until `count` lists are shown again (after a Refresh). */
const shownAgain = (page: Page, count: number) =>
  page.waitForFunction(
    (n) => {
      const cards = [...document.querySelectorAll('main ul > li')];
      const done = cards.filter((card) => !card.textContent?.includes('Loading…')).length;
      return cards.length > 0 && done >= n ? performance.now() : false;
    },
    count,
    { timeout: 120_000, polling: 10 },
  );

/** The lists' first pages fetched by the page itself, all at once: [first done, all done]. */
const fetchDirectly = (page: Page, ids: string[]) =>
  page.evaluate(async (all) => {
    const start = performance.now();
    let first = 0;
    await Promise.all(
      all.map(async (id) => {
        await (await fetch(`/api/v1/playlist?id=${id}`, { cache: 'no-store' })).arrayBuffer();
        first ||= performance.now() - start;
      }),
    );
    return [first, performance.now() - start] as const;
  }, ids);

export async function benchFollowing(options: {
  profiles: readonly LatencyProfile[];
  rounds: number;
}): Promise<BenchRow[]> {
  const lists = await playlistsToFollow();
  const ids = lists.map((list) => list.id);
  const browser = await launchChromium();
  const rows: BenchRow[] = [];
  try {
    for (const profile of options.profiles) {
      const cold = {
        first: [] as number[],
        all: [] as number[],
        refFirst: [] as number[],
        refAll: [] as number[],
      };
      const warm = { refresh: [] as number[], pages: [] as number[] };
      for (let round = 0; round < options.rounds; round++) {
        // The reference first, on an explorer of its own, as cold as the view's.
        let reference: Explorer = await startExplorer(undefined, profileEnv(profile));
        try {
          const { context, page } = await followingPage(browser, []);
          await page.goto(`${reference.url}/robots.txt`);
          const [first, all] = await fetchDirectly(page, ids);
          cold.refFirst.push(first);
          cold.refAll.push(all);
          await context.close();
        } finally {
          await reference.stop();
        }
        reference = await startExplorer(undefined, profileEnv(profile));
        try {
          const { context, page } = await followingPage(browser, lists);
          await page.goto(`${reference.url}/following`);
          await page.waitForTimeout(3000);
          console.error('DEBUG', (await page.locator('main').innerText()).slice(0, 600));
          const times = await shownTimes(page);
          cold.first.push(times.first);
          cold.all.push(times.all);
          // Warm: every list is in the server's cache now.
          const before = await page.evaluate(() => performance.now());
          await page.getByRole('button', { name: 'Refresh', exact: true }).click();
          // Once the click has reset the cards to loading, all shown again.
          await page
            .waitForFunction(() => document.body.textContent?.includes('Loading…'), null, {
              timeout: 10_000,
            })
            .catch(() => undefined);
          const after = (await (await shownAgain(page, LISTS)).jsonValue()) as number;
          warm.refresh.push(after - before);
          const [, pages] = await fetchDirectly(page, ids);
          warm.pages.push(pages);
          await context.close();
        } finally {
          await reference.stop();
        }
      }
      const m = (values: number[]) => formatSpread(spread(values), 0, ' ms');
      const ratio = (a: number[], b: number[]) => spread(a.map((v, i) => v / b[i]!));
      const refText = (values: number[], what: string) => `${what} ${m(values)}`;
      const warmRatio = ratio(warm.refresh, warm.pages);
      rows.push(
        {
          bench: '17',
          measure: labelled(`Following, ${LISTS} lists, cold: asked → first list shown`, {
            profile,
          }),
          figure: m(cold.first),
          reference: refText(
            cold.refFirst,
            `the first of the ${LISTS} first pages fetched directly`,
          ),
          ratio: formatSpread(ratio(cold.first, cold.refFirst), 2, '×'),
          target: '–',
          met: null,
        },
        {
          bench: '17',
          measure: labelled(`Following, ${LISTS} lists, cold: asked → all shown`, { profile }),
          figure: m(cold.all),
          reference: refText(cold.refAll, `all ${LISTS} first pages fetched directly`),
          ratio: formatSpread(ratio(cold.all, cold.refAll), 2, '×'),
          target: '–',
          met: null,
        },
        {
          bench: '17',
          measure: labelled(`Following, ${LISTS} lists, warm: Refresh → all shown again`, {
            profile,
          }),
          figure: m(warm.refresh),
          reference: refText(warm.pages, `the ${LISTS} cached first pages fetched directly`),
          ratio: formatSpread(warmRatio, 2, '×'),
          target: '≤ 1.2×',
          met: median(warm.refresh.map((v, i) => v / warm.pages[i]!)) <= 1.2,
        },
      );
    }
    return rows;
  } finally {
    await browser.close();
  }
}
