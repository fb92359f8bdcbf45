import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_IDS } from '../../catalogue/demo-fixtures.ts';
import { freePort } from '../../test-support/free-port.ts';
import { startExplorerProcess, type ExplorerProcess } from '../../test-support/raw-http.ts';

// /metrics as a scraper meets it: `npm start`'s process with a token and a private port, after
// some traffic, scraped over HTTP; the text must parse as the Prometheus exposition format
// and hold the figures an operator watches. /readyz, public, says only whether and why.

const TOKEN = 'metrics-token-for-the-test-0123456789';

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const LABEL = `[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\[\\\\"n])*"`;
const SAMPLE = new RegExp(
  `^(${NAME})(?:\\{((?:${LABEL})(?:,${LABEL})*)?,?\\})? ([-+]?(?:[0-9.]+(?:[eE][-+]?[0-9]+)?|[Ii]nf|[Nn]a[Nn]))(?: -?[0-9]+)?$`,
);
const HELP = new RegExp(`^# HELP (${NAME}) .*$`);
const TYPE = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`);

/**
 * Parses the text exposition format strictly enough to fail on anything malformed (NaN and Inf
 * in any case, as Prometheus' own parser takes them).
 */
function parseExposition(text: string): { types: Map<string, string>; samples: Sample[] } {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    const type = TYPE.exec(line);
    if (type) {
      expect(types.has(type[1]!), `one TYPE per family: ${line}`).toBe(false);
      types.set(type[1]!, type[2]!);
      continue;
    }
    if (HELP.test(line)) continue;
    const sample = SAMPLE.exec(line);
    expect(sample, `a sample line: ${line}`).not.toBeNull();
    const labels: Record<string, string> = {};
    for (const pair of sample![2]?.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g) ?? [])
      labels[pair[1]!] = pair[2]!;
    const name = sample![1]!;
    const family = types.has(name) ? name : name.replace(/_(bucket|sum|count|total|created)$/, '');
    expect(types.has(family) || types.has(name), `a declared family for ${name}`).toBe(true);
    samples.push({
      name,
      labels,
      value: Number(sample![3]!.replace(/inf/i, 'Infinity').replace(/nan/i, 'NaN')),
    });
  }
  return { types, samples };
}

describe('/metrics', () => {
  let explorer: ExplorerProcess;
  let metricsPort: number;
  let base: string;

  beforeAll(async () => {
    metricsPort = await freePort();
    explorer = await startExplorerProcess({
      METRICS_TOKEN: TOKEN,
      METRICS_PORT: String(metricsPort),
    });
    base = `http://127.0.0.1:${explorer.port}`;
    // Traffic: a miss, a hit (the fast path), a bad ID (no upstream call).
    const page = `${base}/api/v1/playlist?id=${FIXTURE_IDS.playlist101}`;
    expect((await fetch(page)).status).toBe(200);
    expect((await fetch(page)).status).toBe(200);
    expect((await fetch(`${base}/api/v1/playlist?id=nope`)).status).toBe(400);
  }, 30_000);

  afterAll(async () => {
    await explorer.dispose();
  });

  it('needs the bearer token on the public port', async () => {
    const without = await fetch(`${base}/metrics`);
    expect(without.status).toBe(401);
    expect(without.headers.get('content-type')).toContain('application/problem+json');
    expect(without.headers.get('www-authenticate')).toContain('Bearer');
    const wrong = await fetch(`${base}/metrics`, {
      headers: { Authorization: `Bearer ${TOKEN.slice(0, -1)}x` },
    });
    expect(wrong.status).toBe(401);
    // The scheme's case is not the token's (RFC 9110 §11.1); the token's is.
    for (const [authorization, status] of [
      [`bearer ${TOKEN}`, 200],
      [`BEARER  ${TOKEN}`, 200],
      [`Bearer ${TOKEN.toUpperCase()}`, 401],
      [`Basic ${TOKEN}`, 401],
    ] as const) {
      const answer = await fetch(`${base}/metrics`, { headers: { Authorization: authorization } });
      await answer.arrayBuffer();
      expect(answer.status, authorization).toBe(status);
    }
  });

  it('parses as Prometheus text and holds the upstream, quota, cache and answer figures', async () => {
    const response = await fetch(`${base}/metrics`, {
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const { types, samples } = parseExposition(await response.text());
    const value = (name: string, labels: Record<string, string> = {}) =>
      samples.find(
        (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
      )?.value;

    expect(types.get('explorer_upstream_calls_total')).toBe('counter');
    expect(types.get('explorer_upstream_duration_seconds')).toBe('histogram');
    expect(value('explorer_upstream_calls_total', { endpoint: 'playlist' })).toBe(1);
    expect(value('explorer_upstream_lookups_total', { endpoint: 'playlist', status: '200' })).toBe(
      1,
    );
    expect(value('explorer_upstream_duration_seconds_count', { endpoint: 'playlist' })).toBe(1);
    expect(value('explorer_page_answers_total', { endpoint: 'playlist', cache: 'miss' })).toBe(1);
    expect(value('explorer_page_answers_total', { endpoint: 'playlist', cache: 'hit' })).toBe(1);
    expect(value('explorer_quota_used')).toBe(1);
    expect(value('explorer_quota_remaining')).toBe(value('explorer_quota_budget')! - 1);
    expect(value('explorer_cache_entries')).toBe(1);
    expect(value('explorer_cache_bytes')).toBeGreaterThan(0);
    expect(value('explorer_http_requests_in_flight')).toBe(1); // this scrape
    expect(value('explorer_process_resident_memory_bytes')).toBeGreaterThan(0);
    // The plan said at start (memory-plan.ts): the defaults' 64 MiB cache, the side caches at
    // their bounds, the process and working room; more than the process holds at rest.
    const plan = value('explorer_memory_plan_bytes')!;
    expect(plan).toBeGreaterThan(64 * 2 ** 20);
    expect(plan).toBeGreaterThan(value('explorer_process_resident_memory_bytes')!);
    expect(value('explorer_walks_running', { of: 'walks' })).toBe(0);
    expect(types.get('explorer_walks_total')).toBe('counter');
  });

  it('are served without a token on the private port, and nothing else is', async () => {
    const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
    expect(scraped.status).toBe(200);
    expect(parseExposition(await scraped.text()).samples.length).toBeGreaterThan(10);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/readyz`)).status).toBe(404);
  });

  it('leave /readyz saying only whether the explorer is ready, and why not', async () => {
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
  });
});
