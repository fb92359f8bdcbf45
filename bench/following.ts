import type { Browser, Page } from '@playwright/test';
import { FOLLOW_STORE_KEY, FOLLOW_STORE_VERSION } from '../src/app/following/follow-store.ts';
import { generateDemoCatalogue } from '../src/catalogue/demo-data.ts';
import { FIXTURE_IDS } from '../src/catalogue/demo-fixtures.ts';
import { launchChromium } from './browser.ts';
import { startExplorer, type Explorer } from './explorer.ts';
import { labelled, LOCAL, profileEnv, type LatencyProfile } from './latency-profiles.ts';
import { formatSpread, median, percentile, spread } from './stats.ts';
import type { BenchRow } from './table.ts';

// Bench 17: the Following view, in a fresh profile whose store follows the lists.
// - 50 lists (the big channel's first 50 playlists, of 0 to 5,000 items). Cold (a fresh
//   explorer, nothing cached): from the view's first `/feeds/updates` request to the first list
//   shown and to all 50 read, beside the same 50 lists' first pages fetched directly by the same
//   browser from another fresh explorer (all at once). Warm: Refresh, until every list is read
//   again, beside the same 50 first pages fetched directly from the cache, which is what a
//   refresh would cost without the batch.
// - 5,000 lists: every list of the demo catalogue (its channels and playlists) and, to make up
//   the number, playlists of the right shape it does not have (their feeds answer 404, which the
//   server remembers as it remembers a page). Warm: Refresh until all 5,000 are read again,
//   beside the same 5,000 first pages fetched directly, six at a time (the browser's
//   connections to one host). Then the view scrolled down at a fast, steady speed:
//   tasks over 50 ms (none, for 60 frames a second with no dropped run of frames) and the frame
//   intervals, beside the same scroll over the 5,000-video playlist's view.

type Followed = { kind: 'playlist' | 'channel'; id: string; title: string };

const FEW = 50;
/** The full run's many lists; the smoke run follows fewer (`many`), its figures mean nothing. */
const MANY = 5_000;
/** A fast reader's steady scroll, for long enough to pass hundreds of cards. */
const SCROLL_PX_PER_SECOND = 6_000;
const SCROLL_SECONDS = 10;
/** How long the page rests at the top before each scroll. */
const SETTLE_MS = 300;

function fewLists(): Followed[] {
  const { playlists } = generateDemoCatalogue();
  return playlists
    .filter((p) => p.channelId === FIXTURE_IDS.bigChannel)
    .sort((a, b) => a.ordinal - b.ordinal)
    .slice(0, FEW)
    .map(({ id, title }) => ({ kind: 'playlist', id, title }));
}

function manyLists(many: number): Followed[] {
  const { channels, playlists } = generateDemoCatalogue();
  const real: Followed[] = [
    ...channels.map(({ id, title }) => ({ kind: 'channel' as const, id, title })),
    ...playlists.map(({ id, title }) => ({ kind: 'playlist' as const, id, title })),
  ];
  const unknown = Array.from({ length: Math.max(0, many - real.length) }, (_, i) => ({
    kind: 'playlist' as const,
    id: `PLnotInTheDemoCatalogue${String(i).padStart(11, '0')}`,
    title: `Unknown playlist ${i}`,
  }));
  return [...real, ...unknown].slice(0, many);
}

/** A page whose storage follows `lists`. */
async function followingPage(browser: Browser, lists: readonly Followed[]) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const stored = {
    version: FOLLOW_STORE_VERSION,
    lists: lists.map((list) => ({ ...list, followedAt: 0, seen: null })),
  };
  await context.addInitScript(
    ([key, value]) => {
      // Once per context, not on every navigation: the view writes its baselines there.
      if (localStorage.getItem(key) === null) localStorage.setItem(key, value);
    },
    [FOLLOW_STORE_KEY, JSON.stringify(stored)] as const,
  );
  await context.addInitScript(OBSERVERS);
  return { context, page: await context.newPage() };
}

/**
 * Injected before the page's scripts: when the first card showed its answer, and the long
 * tasks, by the page's own clock (the bench's polling cannot delay what it measures).
 */
const OBSERVERS = `
  (() => {
    window.__firstShown = 0;
    window.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries())
        window.__longTasks.push({ start: entry.startTime, duration: entry.duration });
    }).observe({ type: 'longtask', buffered: true });
    const tick = () => {
      const cards = [...document.querySelectorAll('main li[aria-posinset]')];
      if (cards.some((card) => !card.textContent.includes('Loading…')))
        window.__firstShown = performance.now();
      else setTimeout(tick, 10);
    };
    setTimeout(tick, 10);
  })();
`;

const STATUS = 'main [role=status][data-phase]';

/** performance.now() once the view's refresh has read all `count` lists and stopped. */
const readAll = (page: Page, count: number) =>
  page.waitForFunction(
    ([selector, n]) => {
      const status = document.querySelector(selector as string) as HTMLElement | null;
      return status?.dataset.phase === 'idle' && Number(status.dataset.done) === n
        ? performance.now()
        : false;
    },
    [STATUS, count] as const,
    { timeout: 300_000, polling: 10 },
  );

/** Cold: from the first `/feeds/updates` request to the first list shown, and to all read. */
async function coldTimes(page: Page, count: number): Promise<{ first: number; all: number }> {
  const all = (await (await readAll(page, count)).jsonValue()) as number;
  const { first, asked } = await page.evaluate(() => ({
    first: (window as unknown as { __firstShown: number }).__firstShown,
    asked: performance
      .getEntriesByType('resource')
      .find((entry) => entry.name.includes('/feeds/updates?'))!.startTime,
  }));
  return { first: first - asked, all: all - asked };
}

/** Warm: Refresh, until every list is read again; milliseconds. */
async function warmRefresh(page: Page, count: number): Promise<number> {
  const before = await page.evaluate(() => performance.now());
  await page.getByRole('button', { name: 'Refresh', exact: true }).click();
  await page.waitForFunction(
    (selector) => (document.querySelector(selector) as HTMLElement).dataset.phase !== 'idle',
    STATUS,
    { timeout: 10_000, polling: 5 },
  );
  const after = (await (await readAll(page, count)).jsonValue()) as number;
  return after - before;
}

/** The lists' first pages fetched by the page itself, `atOnce` at a time: [first, all]. */
const fetchDirectly = (page: Page, lists: readonly Followed[], atOnce: number) =>
  page.evaluate(
    async ([all, width]) => {
      const start = performance.now();
      let first = 0;
      const queue = [...all];
      const work = async () => {
        for (let list = queue.shift(); list; list = queue.shift()) {
          const endpoint = list.kind === 'channel' ? 'channel-videos' : 'playlist';
          await (
            await fetch(`/api/v1/${endpoint}?id=${list.id}`, { cache: 'no-store' })
          ).arrayBuffer();
          first ||= performance.now() - start;
        }
      };
      await Promise.all(Array.from({ length: width }, work));
      return [first, performance.now() - start] as const;
    },
    [lists, atOnce] as const,
  );

interface ScrollMeasure {
  /** Long tasks while scrolling, ms. */
  longTasks: number[];
  /** Intervals between frames, ms. */
  frames: number[];
  /** Pixels scrolled. */
  distance: number;
}

/**
 * Scrolls the window down at a steady speed for `seconds`, by animation frames, after
 * `settleMs` at the top.
 */
async function scrollThrough(
  page: Page,
  seconds: number,
  settleMs: number,
): Promise<ScrollMeasure> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(settleMs);
  const { started, frames, distance } = await page.evaluate(
    ([speed, seconds]) =>
      new Promise<{ started: number; frames: number[]; distance: number }>((resolve) => {
        const frames: number[] = [];
        const started = performance.now();
        let last = started;
        const end = () => resolve({ started, frames: frames.slice(1), distance: window.scrollY });
        // A page that stops drawing frames altogether ends the measure too, its frames short.
        const guard = setTimeout(end, (seconds! + 5) * 1000);
        const step = (now: number) => {
          frames.push(now - last);
          window.scrollBy(0, (speed! * (now - last)) / 1000);
          last = now;
          if (now - started > seconds! * 1000) {
            clearTimeout(guard);
            end();
          } else requestAnimationFrame(step);
        };
        requestAnimationFrame(step);
      }),
    [SCROLL_PX_PER_SECOND, seconds] as const,
  );
  const longTasks = await page.evaluate(
    (from) =>
      (window as unknown as { __longTasks: Array<{ start: number; duration: number }> }).__longTasks
        .filter((task) => task.start >= from)
        .map((task) => task.duration),
    started,
  );
  return { longTasks, frames, distance };
}

const ms = (values: number[]) => formatSpread(spread(values), 0, ' ms');
const ratio = (a: number[], b: number[]) => spread(a.map((v, i) => v / b[i]!));

async function fewRows(browser: Browser, profile: LatencyProfile, rounds: number) {
  const lists = fewLists();
  const cold = {
    first: [] as number[],
    all: [] as number[],
    refFirst: [] as number[],
    refAll: [] as number[],
  };
  const warm = { refresh: [] as number[], pages: [] as number[] };
  for (let round = 0; round < rounds; round++) {
    // The reference first, on an explorer of its own, as cold as the view's.
    let explorer: Explorer = await startExplorer(undefined, profileEnv(profile));
    try {
      const { context, page } = await followingPage(browser, []);
      await page.goto(`${explorer.url}/robots.txt`);
      const [first, all] = await fetchDirectly(page, lists, lists.length);
      cold.refFirst.push(first);
      cold.refAll.push(all);
      await context.close();
    } finally {
      await explorer.stop();
    }
    explorer = await startExplorer(undefined, profileEnv(profile));
    try {
      const { context, page } = await followingPage(browser, lists);
      await page.goto(`${explorer.url}/following`);
      const times = await coldTimes(page, lists.length);
      cold.first.push(times.first);
      cold.all.push(times.all);
      warm.refresh.push(await warmRefresh(page, lists.length));
      const [, pages] = await fetchDirectly(page, lists, lists.length);
      warm.pages.push(pages);
      await context.close();
    } finally {
      await explorer.stop();
    }
  }
  const warmRatio = ratio(warm.refresh, warm.pages);
  return [
    {
      bench: '17',
      measure: labelled(`Following, ${FEW} lists, cold: asked → first list shown`, { profile }),
      figure: ms(cold.first),
      reference: `the first of the ${FEW} first pages fetched directly ${ms(cold.refFirst)}`,
      ratio: formatSpread(ratio(cold.first, cold.refFirst), 2, '×'),
      target: '–',
      met: null,
    },
    {
      bench: '17',
      measure: labelled(`Following, ${FEW} lists, cold: asked → all read`, { profile }),
      figure: ms(cold.all),
      reference: `all ${FEW} first pages fetched directly ${ms(cold.refAll)}`,
      ratio: formatSpread(ratio(cold.all, cold.refAll), 2, '×'),
      target: '–',
      met: null,
    },
    {
      bench: '17',
      measure: labelled(`Following, ${FEW} lists, warm: Refresh → all read again`, { profile }),
      figure: ms(warm.refresh),
      reference: `the ${FEW} cached first pages fetched directly ${ms(warm.pages)}`,
      ratio: formatSpread(warmRatio, 2, '×'),
      target: '≤ 1.2×',
      met: warmRatio.median <= 1.2,
    },
  ] satisfies BenchRow[];
}

async function manyRows(
  browser: Browser,
  rounds: number,
  many: number,
  seconds: number,
  settleMs: number,
) {
  const lists = manyLists(many);
  const warm = { refresh: [] as number[], pages: [] as number[] };
  const scroll = { view: [] as ScrollMeasure[], reference: [] as ScrollMeasure[] };
  for (let round = 0; round < rounds; round++) {
    console.error(`bench 17: ${many} lists, round ${round + 1} of ${rounds}`);
    const explorer = await startExplorer(undefined, profileEnv(LOCAL));
    try {
      const { context, page } = await followingPage(browser, lists);
      await page.goto(`${explorer.url}/following`);
      // Cold first, which fills the server's cache (and the browser's baselines).
      await readAll(page, lists.length);
      warm.refresh.push(await warmRefresh(page, lists.length));
      const [, pages] = await fetchDirectly(page, lists, 6);
      warm.pages.push(pages);
      scroll.view.push(await scrollThrough(page, seconds, settleMs));
      await context.close();
      // The reference scroll: the 5,000-video playlist's view, in a page of its own, its pages
      // cached by a first pass.
      const reference = await followingPage(browser, []);
      await reference.page.goto(`${explorer.url}/playlist/${FIXTURE_IDS.playlist5000}`);
      await reference.page.waitForSelector('html[data-hydrated]', { state: 'attached' });
      await scrollThrough(reference.page, seconds, settleMs);
      scroll.reference.push(await scrollThrough(reference.page, seconds, settleMs));
      await reference.context.close();
    } finally {
      await explorer.stop();
    }
  }
  const warmRatio = ratio(warm.refresh, warm.pages);
  const over = (m: ScrollMeasure) => m.longTasks.filter((d) => d > 50).length;
  const longest = (m: ScrollMeasure) => Math.max(0, ...m.longTasks);
  const p95 = (m: ScrollMeasure) => percentile(m.frames, 95);
  const fps = (m: ScrollMeasure) => 1000 / median(m.frames);
  const scrollText = (measures: ScrollMeasure[]) =>
    `${median(measures.map(over))} tasks over 50 ms (longest ${median(measures.map(longest)).toFixed(0)} ms), ` +
    `${median(measures.map(fps)).toFixed(0)} fps, frame p95 ${median(measures.map(p95)).toFixed(1)} ms, ` +
    `${(median(measures.map((m) => m.distance)) / 1000).toFixed(0)}k px`;
  return [
    {
      bench: '17',
      measure: labelled(`Following, ${many} lists, warm: Refresh → all read again`, {
        profile: LOCAL,
      }),
      figure: ms(warm.refresh),
      reference: `the ${many} cached first pages fetched directly, 6 at a time ${ms(warm.pages)}`,
      ratio: formatSpread(warmRatio, 2, '×'),
      target: '≤ 1.2×',
      met: warmRatio.median <= 1.2,
    },
    {
      bench: '17',
      measure: labelled(
        `Following, ${many} lists: scrolled for ${seconds} s at ${SCROLL_PX_PER_SECOND} px/s`,
        {
          profile: LOCAL,
        },
      ),
      figure: scrollText(scroll.view),
      reference: `the 5,000-video playlist, the same scroll: ${scrollText(scroll.reference)}`,
      ratio: formatSpread(
        spread(scroll.view.map((m, i) => p95(m) / p95(scroll.reference[i]!))),
        2,
        '× frame p95',
      ),
      target: 'no task over 50 ms',
      met: scroll.view.every((m) => over(m) === 0),
    },
  ] satisfies BenchRow[];
}

export async function benchFollowing(options: {
  profiles: readonly LatencyProfile[];
  rounds: number;
  /**
   * Lists followed in the many-lists rows, seconds of their scroll and the rest before it
   * (smaller in the smoke run).
   */
  many?: number;
  scrollSeconds?: number;
  settleMs?: number;
}): Promise<BenchRow[]> {
  const { many = MANY, scrollSeconds = SCROLL_SECONDS, settleMs = SETTLE_MS } = options;
  const browser = await launchChromium();
  try {
    const rows: BenchRow[] = [];
    for (const profile of options.profiles)
      rows.push(...(await fewRows(browser, profile, options.rounds)));
    rows.push(...(await manyRows(browser, options.rounds, many, scrollSeconds, settleMs)));
    return rows;
  } finally {
    await browser.close();
  }
}
