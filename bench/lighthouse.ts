import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { desktopConfig, type Config, type Flags } from 'lighthouse';
import { FIXTURE_IDS } from '../src/catalogue/demo-fixtures.ts';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE } from '../e2e/chromium.ts';
import { startExplorer } from './explorer.ts';
import { withAllCores } from './processes.ts';
import { spread, type Spread } from './stats.ts';
import type { BenchRow } from './table.ts';

// Bench "lighthouse": Lighthouse's own scores for the first view of the playlist, a channel and
// home, with its mobile preset (a mid-range phone on a slow 4G link, simulated: 4× slower CPU,
// 150 ms round trips, 1.6 Mbit/s) and its desktop preset, against the built explorer and its
// embedded catalogue. Debian's Chromium, offline: no audit here fetches anything but the page
// under test. Each page is audited a few times; performance moves between runs, so a row gives
// the median and the range, and the target is on the worst run.
//
// Also a command, to audit any running explorer (main's, for a before/after):
//   npx node bench/lighthouse.ts http://127.0.0.1:8080 [runs]

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof CATEGORIES)[number];

export const LIGHTHOUSE_PAGES = [
  { name: 'playlist', path: `/playlist/${FIXTURE_IDS.playlist5000}` },
  { name: 'channel', path: `/channel/${FIXTURE_IDS.bigChannel}` },
  { name: 'home', path: '/' },
] as const;

const PRESETS: Record<'mobile' | 'desktop', Config | undefined> = {
  // Lighthouse's default configuration is its mobile preset.
  mobile: undefined,
  desktop: desktopConfig,
};
type Preset = keyof typeof PRESETS;

/**
 * The smoke run's settings, whose figures mean nothing: the run has to go through. The
 * performance category alone, the least waiting after the load that still gives a whole
 * report, and no screenshot.
 */
const SMOKE_FLAGS: Flags = {
  onlyCategories: ['performance'],
  pauseAfterFcpMs: 250,
  pauseAfterLoadMs: 250,
  networkQuietThresholdMs: 250,
  cpuQuietThresholdMs: 250,
  disableFullPageScreenshot: true,
};

export interface Audit {
  scores: Record<Category, number>;
  cls: number;
  fcp: number;
  lcp: number;
  tbt: number;
  /**
   * Lighthouse's measure of the host's CPU (`environment.benchmarkIndex`): its mobile preset
   * slows the page 4×, calibrated for a host scoring about 1,000 or more.
   */
  benchmarkIndex: number;
  /** Audits that cost points (weighted, below 1), for the log. */
  missed: string[];
}

/** One Lighthouse run of `url` in the Chromium listening on `port`, `flags` added. */
async function audit(url: string, port: number, preset: Preset, flags: Flags): Promise<Audit> {
  const result = await lighthouse(
    url,
    { port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES], ...flags },
    PRESETS[preset],
  );
  if (!result) throw new Error(`lighthouse gave no result for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError) throw new Error(`lighthouse: ${lhr.runtimeError.message}`);
  const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const scores = Object.fromEntries(
    CATEGORIES.map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)]),
  ) as Record<Category, number>;
  const missed = Object.values(lhr.categories).flatMap((category) =>
    category.auditRefs
      .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
      .map((ref) => `${category.id}/${ref.id} ${lhr.audits[ref.id]!.displayValue ?? ''}`.trim()),
  );
  return {
    scores,
    cls: numeric('cumulative-layout-shift'),
    fcp: numeric('first-contentful-paint'),
    lcp: numeric('largest-contentful-paint'),
    tbt: numeric('total-blocking-time'),
    benchmarkIndex: lhr.environment.benchmarkIndex,
    missed,
  };
}

/**
 * Lighthouse now and then fails to record a page load's trace (NO_NAVSTART, NO_FCP): that run
 * measured nothing, so it is run again, twice at most.
 */
async function withRetry(run: () => Promise<Audit>): Promise<Audit> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if (attempt === 3) throw error;
      console.error(`lighthouse: run again after ${String(error)}`);
    }
  }
}

/** Every page under `origin`, `runs` times each, with one preset; a fresh Chromium per preset. */
export async function auditPages(
  origin: string,
  preset: Preset,
  runs: number,
  pages: readonly { name: string; path: string }[] = LIGHTHOUSE_PAGES,
  flags: Flags = {},
): Promise<Map<string, Audit[]>> {
  const chrome = await withAllCores(() =>
    chromeLauncher.launch({
      chromePath: CHROMIUM_EXECUTABLE,
      chromeFlags: ['--headless=new', ...CHROMIUM_ARGS],
    }),
  );
  const results = new Map<string, Audit[]>();
  try {
    for (const page of pages) {
      const audits: Audit[] = [];
      for (let run = 0; run < runs; run++) {
        const one = await withRetry(() =>
          audit(`${origin}${page.path}`, chrome.port, preset, flags),
        );
        if (one.missed.length > 0)
          console.error(`lighthouse ${preset} ${page.name}: ${one.missed.join('; ')}`);
        audits.push(one);
      }
      results.set(page.name, audits);
    }
  } finally {
    chrome.kill();
  }
  return results;
}

const range = (s: Spread, digits = 0) =>
  s.min === s.max
    ? s.median.toFixed(digits)
    : `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}–${s.max.toFixed(digits)})`;

/** A row per preset and page: the four scores, and the metrics behind performance. */
export function lighthouseRows(preset: Preset, results: Map<string, Audit[]>): BenchRow[] {
  return [...results].map(([page, audits]) => {
    const score = (category: Category) => spread(audits.map((a) => a.scores[category]));
    const seconds = (values: number[]) => `${(spread(values).median / 1000).toFixed(2)} s`;
    const cls = spread(audits.map((a) => a.cls));
    const host = spread(audits.map((a) => a.benchmarkIndex));
    const performance = score('performance');
    const others = (['accessibility', 'best-practices', 'seo'] as const).map(score);
    return {
      bench: 'lighthouse',
      measure: `Lighthouse ${preset}, ${page} (${audits.length} runs): performance / accessibility / best practices / SEO`,
      figure: [performance, ...others].map((s) => range(s)).join(' / '),
      reference: `CLS ${cls.max.toFixed(3)} (worst run); FCP ${seconds(audits.map((a) => a.fcp))}, LCP ${seconds(audits.map((a) => a.lcp))}, TBT ${range(spread(audits.map((a) => a.tbt)))} ms; host CPU benchmark index ${range(host)}`,
      ratio: '–',
      target: 'performance ≥ 98 in every run, the others 100, CLS 0',
      met: performance.min >= 98 && others.every((s) => s.min === 100) && cls.max === 0,
    };
  });
}

/**
 * The bench: the built explorer in its default configuration (chain warming on, as `npm start`
 * runs it: the warming's reads share the machine with the page being audited), its page cache
 * warmed as for any later visitor.
 */
export async function benchLighthouse(options: {
  runs: number;
  smoke: boolean;
}): Promise<BenchRow[]> {
  const explorer = await startExplorer(undefined, { CHAIN_WARM_SHARE: undefined });
  try {
    const pages = options.smoke ? LIGHTHOUSE_PAGES.slice(0, 1) : LIGHTHOUSE_PAGES;
    for (const page of pages) await (await fetch(`${explorer.url}${page.path}`)).arrayBuffer();
    const rows: BenchRow[] = [];
    for (const preset of options.smoke ? (['mobile'] as const) : (['mobile', 'desktop'] as const))
      rows.push(
        ...lighthouseRows(
          preset,
          await auditPages(
            explorer.url,
            preset,
            options.runs,
            pages,
            options.smoke ? SMOKE_FLAGS : {},
          ),
        ),
      );
    return rows;
  } finally {
    await explorer.stop();
  }
}

if (import.meta.main) {
  const [origin, runs = '3'] = process.argv.slice(2);
  if (!origin) {
    console.error('usage: npx node bench/lighthouse.ts <origin of a running explorer> [runs]');
    process.exit(2);
  }
  for (const preset of ['mobile', 'desktop'] as const) {
    const results = await auditPages(origin, preset, Number(runs));
    for (const row of lighthouseRows(preset, results))
      console.log(`${row.measure}: ${row.figure}; ${row.reference}`);
  }
}
