import {
  buildPageSource,
  type BuiltPageSource,
  type PageSourceSettings,
} from '../server/pages/build-page-source.ts';
import type { PageSource } from '../server/pages/page-source.ts';
import { createClientRateLimit } from '../server/quota/client-rate-limit.ts';
import { createQuotaGuard } from '../server/quota/quota-guard.ts';
import { createUpstreamClient, type UpstreamClient } from '../server/upstream/client.ts';

// For tests only: the page source as the composition root builds it (buildPageSource: cache,
// request merging, admission, the upstream client over real HTTP), pointed at a test upstream
// or a catalogue on loopback. Generous limits: tests that need tight ones say so.

export interface RealPageSource {
  pageSource: PageSource;
  /** Its page cache, for tests that weigh what it holds. */
  cache: BuiltPageSource['cache'];
  upstream: UpstreamClient;
  close(): Promise<void>;
}

const quiet = { error() {}, warn() {}, debug() {} };

export function realPageSource(
  baseUrl: string,
  options: Pick<PageSourceSettings, 'onPage' | 'now' | 'breaker' | 'staleAfterMs'> & {
    apiKey?: string;
    apiSecret?: string;
    cacheBytes?: number;
    /** Hold failing pages back as the composition root does. */
    backoff?: boolean;
    retries?: number;
    deadlineMs?: number;
  } = {},
): RealPageSource {
  const { now } = options;
  const upstream = createUpstreamClient({
    baseUrl,
    apiKey: options.apiKey ?? 'test-key',
    apiSecret: options.apiSecret ?? 'test-secret',
    quota: createQuotaGuard({ budgetPerHour: 100_000, now }),
    logger: quiet,
    backoffMs: 1,
    deadlineMs: options.deadlineMs ?? 5000,
    retries: options.retries,
  });
  const { pageSource, cache } = buildPageSource({
    upstream,
    cacheMaxBytes: options.cacheBytes ?? 50_000_000,
    clientRateLimit: createClientRateLimit({ burst: 10_000, perSecond: 1 }),
    onPage: options.onPage,
    backoff: options.backoff ? { initialMs: 1000, maxMs: 30_000 } : undefined,
    breaker: options.breaker,
    staleAfterMs: options.staleAfterMs,
    now,
  });
  return { pageSource, cache, upstream, close: () => upstream.close() };
}

/**
 * Every item of a list, read page by page through `pageSource` (as a test's own reference,
 * apart from the code under test), with how many pages that took.
 */
export async function readWholeList<Item>(
  pageSource: PageSource,
  endpoint: 'playlist' | 'channel-videos' | 'channel-playlists',
  id: string,
): Promise<{ items: Item[]; pages: number }> {
  const items: Item[] = [];
  let pages = 0;
  let continuation: string | undefined;
  do {
    const answer = await pageSource.get({ endpoint, id, continuation }, 'test');
    if (answer.kind !== 'page') throw new Error(answer.detail);
    const page = JSON.parse(answer.page.body.toString('utf8')) as {
      items: Item[];
      continuation: string | null;
    };
    items.push(...page.items);
    pages++;
    continuation = page.continuation ?? undefined;
  } while (continuation !== undefined);
  return { items, pages };
}
