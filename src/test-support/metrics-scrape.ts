// For tests and benchmarks only: the page cache's figures as an operator reads them, from
// /metrics (the explorer started with METRICS_TOKEN = SCRAPE_TOKEN).

export const SCRAPE_TOKEN = 'test-and-bench-metrics-token';

export interface CacheFigures {
  entries: number;
  bytes: number;
  maxBytes: number;
  evictions: number;
}

export async function scrapeCache(baseUrl: string): Promise<CacheFigures> {
  const samples = await scrapeSamples(baseUrl);
  const value = (name: string) => {
    const found = samples.get(name);
    if (found === undefined) throw new Error(`/metrics has no ${name}`);
    return found;
  };
  return {
    entries: value('explorer_cache_entries'),
    bytes: value('explorer_cache_bytes'),
    maxBytes: value('explorer_cache_max_bytes'),
    evictions: value('explorer_cache_evictions_total'),
  };
}

/** Every sample of a Prometheus text page, keyed by its name and labels as written (`name{label="v"}`). */
export function parseSamples(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  for (const line of text.split('\n')) {
    const match = /^(\w+(?:\{[^}]*\})?) (\S+)$/.exec(line);
    if (match) samples.set(match[1]!, Number(match[2]));
  }
  return samples;
}

/** Every sample on /metrics (see parseSamples). */
export async function scrapeSamples(
  baseUrl: string,
  token = SCRAPE_TOKEN,
): Promise<Map<string, number>> {
  const response = await fetch(`${baseUrl}/metrics`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  if (!response.ok) throw new Error(`/metrics answered ${response.status}`);
  return parseSamples(await response.text());
}

/** The sum of a family's samples (every label), 0 when it has none. */
export function familyTotal(samples: ReadonlyMap<string, number>, name: string): number {
  let sum = 0;
  for (const [key, value] of samples) if (key === name || key.startsWith(`${name}{`)) sum += value;
  return sum;
}
