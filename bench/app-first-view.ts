import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { FIXTURE_IDS } from '../src/catalogue/demo-fixtures.ts';
import type { Page } from '@playwright/test';
import { FIRST_ROW_PROBE, launchChromium, ROW_SELECTOR } from './browser.ts';
import { startExplorer, type Explorer } from './explorer.ts';
import {
  labelled,
  profileEnv,
  slowCpu,
  type Conditions,
  type LatencyProfile,
} from './latency-profiles.ts';
import { formatSpread, median, spread } from './stats.ts';
import type { BenchRow } from './table.ts';

// Bench 5: from navigation to the first row on screen, for a link to the 5,000-video playlist
// opened in a fresh browser profile (cold HTTP cache), against the floor: the very HTML the
// explorer sends for it, with its scripts taken out, served as a static file by the same server
// (and the same policy: its inline stylesheet applies, which the bench checks). Beside it, the time until the app has hydrated that markup (links navigate in the app,
// the list scrolls virtually). Under each latency profile and page speed (latency-profiles.ts):
// the first visitor's answer puts the list's first page in the cache, so the upstream's latency
// reaches a later visitor's first view only through what the app asks for before it shows.

/** The explorer's HTML for `path`, without scripts or script preloads. */
async function staticCopy(explorerUrl: string, path: string): Promise<string> {
  const html = await (await fetch(`${explorerUrl}${path}`)).text();
  return html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '')
    .replace(/<link rel="modulepreload"[^>]*>/g, '');
}

/**
 * A copy of the build that also holds `reference.html`, the static copy of `path`'s page, for
 * explorers that serve the app and its floor from the same server, origin and connection,
 * compressed alike.
 */
export async function buildWithReference(path: string): Promise<string> {
  const first = await startExplorer();
  const copy = await staticCopy(first.url, path);
  await first.stop();
  const root = mkdtempSync(join(tmpdir(), 'bench-first-view-'));
  cpSync('dist', root, { recursive: true, filter: (source) => !source.includes('.ssr') });
  // The server build, where it can still find the project's node_modules.
  symlinkSync(resolve('dist/.ssr'), join(root, '.ssr'));
  writeFileSync(join(root, REFERENCE_FILE), copy);
  return root;
}

export const startWithReference = (root: string, profile: LatencyProfile): Promise<Explorer> =>
  startExplorer(undefined, { STATIC_ROOT: root, ...profileEnv(profile) });

export const REFERENCE_FILE = 'reference.html';

/**
 * Throws unless every `<style>` of the page applies. The app's stylesheet is inline, allowed by
 * its hash in the page's policy: a copy served under another policy would paint unstyled, and
 * so sooner, a floor no styled page could reach (as the static copy did until the server named
 * the hashes of a built page's styles).
 */
export async function assertStyled(page: Page, url: string): Promise<void> {
  const blocked = await page.evaluate(
    () => [...document.querySelectorAll('style')].filter((style) => style.sheet === null).length,
  );
  if (blocked > 0) throw new Error(`${url}: ${blocked} inline stylesheet(s) did not apply`);
}

interface Timing {
  firstRow: number;
  hydrated: number | null;
}

interface FirstViewFigures {
  /** Per round: the medians of its samples. */
  app: number[];
  hydrated: number[];
  floor: number[];
  ratios: number[];
}

/**
 * Rounds of `samples` navigations each to `path` and to its static copy (the floor), one fresh
 * browser context per navigation, under `conditions`.
 */
async function measureFirstViews(
  browser: Awaited<ReturnType<typeof launchChromium>>,
  explorer: Explorer,
  path: string,
  conditions: Conditions,
  rounds: number,
  samples: number,
): Promise<FirstViewFigures> {
  const measure = async (url: string, app: boolean): Promise<Timing> => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    await context.addInitScript(FIRST_ROW_PROBE);
    const page = await context.newPage();
    await slowCpu(context, page, conditions.cpuSlowdown);
    await page.goto(url);
    await page.waitForSelector(ROW_SELECTOR);
    await assertStyled(page, url);
    if (app) await page.waitForSelector('html[data-hydrated]');
    const timing = await page.evaluate(() => {
      const w = window as unknown as { __firstRow: number };
      // On screen: the row is in the DOM and the page has painted (stylesheets are in).
      const paint = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0;
      // The app marks the moment it has taken over the markup (use-hydration-mark.ts).
      const hydrated = performance.getEntriesByName('hydrated')[0]?.startTime ?? null;
      return { firstRow: Math.max(w.__firstRow, paint), hydrated };
    });
    await context.close();
    return timing;
  };
  const appUrl = `${explorer.url}${path}`;
  const referenceUrl = `${explorer.url}/${REFERENCE_FILE}`;
  // The explorer's first answer warms its page cache, as for any later visitor.
  await measure(appUrl, true);
  const figures: FirstViewFigures = { app: [], hydrated: [], floor: [], ratios: [] };
  for (let round = 0; round < rounds; round++) {
    const a: number[] = [];
    const h: number[] = [];
    const f: number[] = [];
    for (let i = 0; i < samples; i++) {
      f.push((await measure(referenceUrl, false)).firstRow);
      const timing = await measure(appUrl, true);
      a.push(timing.firstRow);
      h.push(timing.hydrated ?? Number.NaN);
    }
    figures.app.push(median(a));
    figures.hydrated.push(median(h));
    figures.floor.push(median(f));
    figures.ratios.push(median(a) / median(f));
  }
  return figures;
}

const floorText = (floor: number[]) =>
  `same HTML without scripts, a static file ${formatSpread(spread(floor), 0, ' ms')}`;

/**
 * For each of `conditions`, an explorer that serves `path` and its static copy, and `rows` of
 * what `measure` finds there; one browser for all of it.
 */
async function withReference(
  path: string,
  conditions: readonly Conditions[],
  rows: (figures: FirstViewFigures, conditions: Conditions) => BenchRow[],
  rounds: (conditions: Conditions) => number,
  samples: number,
): Promise<BenchRow[]> {
  const root = await buildWithReference(path);
  const browser = await launchChromium();
  const out: BenchRow[] = [];
  try {
    for (const each of conditions) {
      const explorer = await startWithReference(root, each.profile);
      try {
        const figures = await measureFirstViews(
          browser,
          explorer,
          path,
          each,
          rounds(each),
          samples,
        );
        out.push(...rows(figures, each));
      } finally {
        await explorer.stop();
      }
    }
    return out;
  } finally {
    await browser.close();
    rmSync(root, { recursive: true, force: true });
  }
}

export function benchAppFirstView(options: {
  conditions: readonly Conditions[];
  roundsFor: (conditions: Conditions) => number;
  samples: number;
}): Promise<BenchRow[]> {
  return withReference(
    `/playlist/${FIXTURE_IDS.playlist5000}`,
    options.conditions,
    ({ app, hydrated, floor, ratios }, conditions) => {
      const r = spread(ratios);
      return [
        {
          bench: '5',
          measure: labelled(
            'app, first view: navigation → first row on screen (cold profile)',
            conditions,
          ),
          figure: formatSpread(spread(app), 0, ' ms'),
          reference: floorText(floor),
          ratio: formatSpread(r, 2, '×'),
          target: '≤ 1.2×',
          met: r.median <= 1.2,
        },
        {
          bench: '5',
          measure: labelled(
            'app, first view: navigation → hydrated (links and scrolling are the app’s)',
            conditions,
          ),
          figure: formatSpread(spread(hydrated), 0, ' ms'),
          reference: floorText(floor),
          ratio: formatSpread(spread(hydrated.map((ms, i) => ms / floor[i]!)), 2, '×'),
          target: '–',
          met: null,
        },
      ];
    },
    options.roundsFor,
    options.samples,
  );
}

/**
 * The embed of the 5,000-video playlist (what oEmbed's snippet frames), opened on its own in a
 * fresh profile, against its own static copy, as bench 5 measures the full view.
 */
export function benchEmbedFirstView(options: {
  conditions: readonly Conditions[];
  rounds: number;
  samples: number;
}): Promise<BenchRow[]> {
  return withReference(
    `/embed/playlist/${FIXTURE_IDS.playlist5000}`,
    options.conditions,
    ({ app, floor, ratios }, conditions) => {
      const r = spread(ratios);
      return [
        {
          bench: '15',
          measure: labelled('embed, first view: navigation → first row on screen', conditions),
          figure: formatSpread(spread(app), 0, ' ms'),
          reference: floorText(floor),
          ratio: formatSpread(r, 2, '×'),
          target: '≤ 1.3×',
          met: r.median <= 1.3,
        },
      ];
    },
    () => options.rounds,
    options.samples,
  );
}
