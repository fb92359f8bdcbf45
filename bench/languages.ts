import { FIXTURE_IDS } from '../src/catalogue/demo-fixtures.ts';
import type { AppLocale } from '../src/shared/locales.ts';
import { launchChromium } from './browser.ts';
import { startExplorer } from './explorer.ts';
import { labelled, profileEnv, slowCpu, type Conditions } from './latency-profiles.ts';
import { formatSpread, median, spread } from './stats.ts';
import type { BenchRow } from './table.ts';

// Bench 16: what a language costs a reader. The 5,000-video playlist opened in a fresh profile
// in Japanese (`?hl=ja`: multi-byte text, its own catalog chunk) against the same view in
// English, measured in the same run, navigations alternating between the two so that the
// machine's noise falls on both: the time from navigation until the app has hydrated the
// server's markup (the `hydrated` mark, use-hydration-mark.ts), which holds everything a
// language adds: the catalog's download and parse, and every message the view formats.

const PATH = `/playlist/${FIXTURE_IDS.playlist5000}`;

export async function benchLanguages(options: {
  conditions: readonly Conditions[];
  rounds: number;
  samples: number;
  locale?: AppLocale;
}): Promise<BenchRow[]> {
  const locale = options.locale ?? 'ja';
  const browser = await launchChromium();
  const rows: BenchRow[] = [];
  try {
    for (const conditions of options.conditions) {
      const explorer = await startExplorer(undefined, profileEnv(conditions.profile));
      try {
        const hydrated = async (url: string): Promise<number> => {
          const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
          const page = await context.newPage();
          await slowCpu(context, page, conditions.cpuSlowdown);
          await page.goto(url);
          await page.waitForSelector('html[data-hydrated]');
          const ms = await page.evaluate(
            () => performance.getEntriesByName('hydrated')[0]?.startTime ?? Number.NaN,
          );
          await context.close();
          return ms;
        };
        const english = `${explorer.url}${PATH}?hl=en`;
        const other = `${explorer.url}${PATH}?hl=${locale}`;
        // Each language's first answer fills the server's caches, as for any later visitor.
        await hydrated(english);
        await hydrated(other);
        const en: number[] = [];
        const xx: number[] = [];
        const ratios: number[] = [];
        for (let round = 0; round < options.rounds; round++) {
          const a: number[] = [];
          const b: number[] = [];
          for (let i = 0; i < options.samples; i++) {
            // Alternating which goes first: neither always meets the other's leftovers.
            if (i % 2 === 0) {
              a.push(await hydrated(english));
              b.push(await hydrated(other));
            } else {
              b.push(await hydrated(other));
              a.push(await hydrated(english));
            }
          }
          en.push(median(a));
          xx.push(median(b));
          ratios.push(median(b) / median(a));
        }
        const r = spread(ratios);
        rows.push({
          bench: '16',
          measure: labelled(
            `playlist view in ${locale}: navigation → hydrated (cold profile)`,
            conditions,
          ),
          figure: formatSpread(spread(xx), 0, ' ms'),
          reference: `the same view in en ${formatSpread(spread(en), 0, ' ms')}`,
          ratio: formatSpread(r, 2, '×'),
          target: '≤ 1.1×',
          met: r.median <= 1.1,
        });
      } finally {
        await explorer.stop();
      }
    }
    return rows;
  } finally {
    await browser.close();
  }
}
