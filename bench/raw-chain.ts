import type { Browser } from '@playwright/test';
import { startExplorer } from './explorer.ts';
import { profileEnv, slowCpu, type Conditions } from './latency-profiles.ts';
import { formatSpread, spread } from './stats.ts';
import type { BenchRow } from './table.ts';

// What the app-loading benchmarks compare against: a script in the same browser, same origin,
// following a playlist's continuations as fast as it can, each on a fresh explorer (a cold
// server cache), timed from the request for page 2.

/** Runs `run` against a fresh explorer (with `env` added), stopped afterwards. */
export async function withFreshExplorer<T>(
  run: (url: string) => Promise<T>,
  env: Record<string, string> = {},
): Promise<T> {
  const explorer = await startExplorer(undefined, env);
  try {
    return await run(explorer.url);
  } finally {
    await explorer.stop();
  }
}

/**
 * Milliseconds from the request for page 2 (or page 1, `fromFirstPage`) until `items` items are
 * in (all, by default), and how many came, under `conditions` (the upstream's latency, the
 * page's CPU).
 */
export function rawChain(
  browser: Browser,
  playlistId: string,
  items: number,
  conditions: Conditions,
  fromFirstPage = false,
): Promise<{ ms: number; items: number }> {
  return withFreshExplorer(async (url) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await slowCpu(context, page, conditions.cpuSlowdown);
    await page.goto(`${url}/healthz`);
    const ms = await page.evaluate(
      async ({ id, wanted, fromFirst }) => {
        let started = fromFirst ? performance.now() : 0;
        let continuation: string | null = null;
        let count = 0;
        do {
          if (continuation !== null && started === 0) started = performance.now();
          const query = new URLSearchParams({ id });
          if (continuation) query.set('continuation', continuation);
          const page = (await (await fetch(`/api/v1/playlist?${query}`)).json()) as {
            items: unknown[];
            continuation: string | null;
          };
          count += page.items.length;
          continuation = page.continuation;
        } while (continuation && count < wanted);
        return { ms: performance.now() - started, items: count };
      },
      {
        id: playlistId,
        wanted: Number.isFinite(items) ? items : Number.MAX_SAFE_INTEGER,
        fromFirst: fromFirstPage,
      },
    );
    await context.close();
    return ms;
  }, profileEnv(conditions.profile));
}

/**
 * A row of the app against the raw chain, round by round (`app[i]` beside `chain[i]`): the
 * median of the rounds' ratios, within 1.2×.
 */
export function againstTheChain(
  bench: string,
  measure: string,
  chainLabel: string,
  app: number[],
  chain: number[],
): BenchRow {
  const ratio = spread(app.map((ms, i) => ms / chain[i]!));
  return {
    bench,
    measure,
    figure: formatSpread(spread(app), 0, ' ms'),
    reference: `${chainLabel} ${formatSpread(spread(chain), 0, ' ms')}`,
    ratio: formatSpread(ratio, 2, '×'),
    target: '≤ 1.2×',
    met: ratio.median <= 1.2,
  };
}
