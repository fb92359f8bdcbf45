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
  const response = await fetch(`${baseUrl}/metrics`, {
    headers: { Authorization: `Bearer ${SCRAPE_TOKEN}` },
  });
  if (!response.ok) throw new Error(`/metrics answered ${response.status}`);
  const text = await response.text();
  const value = (name: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${name} `));
    if (line === undefined) throw new Error(`/metrics has no ${name}`);
    return Number(line.slice(name.length + 1));
  };
  return {
    entries: value('explorer_cache_entries'),
    bytes: value('explorer_cache_bytes'),
    maxBytes: value('explorer_cache_max_bytes'),
    evictions: value('explorer_cache_evictions_total'),
  };
}
