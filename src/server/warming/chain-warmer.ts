import { LRUCache } from 'lru-cache';
import type { PageAnswer, StoredPage } from '../pages/page-entry.ts';
import type { PageSource } from '../pages/page-source.ts';
import type { Lookup } from '../upstream/lookup.ts';

// Warming a playlist's continuation chain behind a person who opened it. Continuations are
// opaque (spec §2.6), so a far item of a cold playlist is a long run of lookups in sequence; while
// someone reads, the warmer follows the chain to the end, so a drag or a deep link meets pages
// already fetched. It is a reader like any other, through the page source (merging with readers'
// calls), spending only warming's share (warm-share.ts) and giving way to people: one list per
// client, at most `lists` at once, waiting while people need the upstream, stopping at the end, a
// failure, a loop, or `idleMs` unread. Who counts as a person: person-request.ts; what starts it:
// warm-trigger.ts. See docs/explorer-server.md, "Warming a playlist's chain".

export type WarmStop =
  /** The list's last page was read. */
  | 'end'
  /** Nobody read the list for `idleMs`. */
  | 'idle'
  /** Warming's share of the hour is spent. */
  | 'share'
  /** The hour's quota has no room to spare for warming. */
  | 'quota'
  /** A page failed (or was held back) with no copy to go on from. */
  | 'failed'
  /** The chain came back to a continuation it had already given. */
  | 'loop'
  /** Its readers went on to other lists. */
  | 'replaced'
  /** The explorer is stopping. */
  | 'closed';

export type WarmSkip =
  /** `lists` lists are being warmed already. */
  | 'busy'
  /** The list's first page is not in the cache: the reader's own request did not get it. */
  | 'unread'
  /** The list was warmed to its end a moment ago: its pages are still fresh. */
  | 'recent';

export const WARM_STOPS: readonly WarmStop[] = [
  'end',
  'idle',
  'share',
  'quota',
  'failed',
  'loop',
  'replaced',
  'closed',
];
export const WARM_SKIPS: readonly WarmSkip[] = ['busy', 'unread', 'recent'];

export interface ChainWarmStats {
  /** Lists being warmed now. */
  lists: number;
  /** Warmings started since start. */
  started: number;
  skipped: Record<WarmSkip, number>;
  stopped: Record<WarmStop, number>;
  /** Pages the warmer read, by where they came from. */
  pages: { fetched: number; merged: number; cached: number };
  /** Upstream calls warming made (retries included): what it spent of the quota. */
  lookups: number;
  /** Times the warmer waited for people's calls to leave the upstream's slots. */
  yields: number;
  /** Pages the warmer fetched that a person then asked for: what warming saved. */
  readByPeople: number;
}

export interface ChainWarmer {
  /**
   * A person read the playlist `id`: its view (`lookup` undefined) or one of its pages. Warms
   * its chain when nobody is warming it, or keeps its warming going.
   */
  read(id: string, client: string, lookup?: Lookup): void;
  stats(): ChainWarmStats;
  /** Stops every warming (at its next page). */
  close(): void;
}

export interface ChainWarmerOptions {
  pageSource: Pick<PageSource, 'get' | 'peek'>;
  /** The warmer's name as a client: its allowance is warming's share (warm-share.ts). */
  client: string;
  /** Lists warmed at once. */
  lists: number;
  /** A list nobody has read for this long stops being warmed. */
  idleMs: number;
  /** True while people's calls need the upstream: the warmer waits (upstream/slots.ts). */
  upstreamBusy?: () => boolean;
  /** False when the hour's quota has no room to spare for warming: the warmer stops. */
  quotaToSpare?: () => boolean;
  /** A list warmed to its end is not warmed again for this long (its pages are fresh). */
  rewarmAfterMs?: number;
  /** How often a waiting warmer looks at the upstream again. */
  pollMs?: number;
  now?: () => number;
}

interface Warm {
  id: string;
  lastReadAt: number;
  /** Who reads the list (their last list is this one). */
  readers: Set<string>;
  /** Set when the warming is to stop at its next turn. */
  halt?: WarmStop;
}

/** Lists remembered as warmed to their end, at most. */
const MAX_FINISHED = 1000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** The continuation a page answer gives, null at the list's end. */
function continuationOf(answer: Extract<PageAnswer, { kind: 'page' }>): string | null {
  const page = (answer.data ?? JSON.parse(answer.page.body.toString('utf8'))) as {
    continuation?: unknown;
  };
  return typeof page.continuation === 'string' && page.continuation !== ''
    ? page.continuation
    : null;
}

export function createChainWarmer(options: ChainWarmerOptions): ChainWarmer {
  const {
    pageSource,
    client,
    lists,
    idleMs,
    upstreamBusy = () => false,
    quotaToSpare = () => true,
    rewarmAfterMs = 10 * 60_000,
    pollMs = 25,
    now = Date.now,
  } = options;
  const warms = new Map<string, Warm>();
  /** Each reader's current list, for readers of lists being warmed. */
  const readingOf = new Map<string, string>();
  /** Lists warmed to their end, and when; the one that finished longest ago goes first. */
  const finished = new LRUCache<string, number>({ max: MAX_FINISHED });
  /** Pages the warmer fetched and no person has asked for yet. */
  const warmed = new WeakSet<StoredPage>();
  let closed = false;
  const stats: ChainWarmStats = {
    lists: 0,
    started: 0,
    skipped: { busy: 0, unread: 0, recent: 0 },
    stopped: {
      end: 0,
      idle: 0,
      share: 0,
      quota: 0,
      failed: 0,
      loop: 0,
      replaced: 0,
      closed: 0,
    },
    pages: { fetched: 0, merged: 0, cached: 0 },
    lookups: 0,
    yields: 0,
    readByPeople: 0,
  };

  const end = (warm: Warm, reason: WarmStop) => {
    stats.stopped[reason]++;
    warms.delete(warm.id);
    for (const reader of warm.readers) {
      if (readingOf.get(reader) === warm.id) readingOf.delete(reader);
    }
    if (reason === 'end') {
      finished.set(warm.id, now());
    }
  };

  /** Undefined when the warmer may ask for its next page now; else why it stops. */
  async function turn(warm: Warm): Promise<WarmStop | undefined> {
    let waited = false;
    for (;;) {
      if (warm.halt !== undefined) return warm.halt;
      if (now() - warm.lastReadAt > idleMs) return 'idle';
      if (!quotaToSpare()) return 'quota';
      if (!upstreamBusy()) return undefined;
      if (!waited) stats.yields++;
      waited = true;
      await sleep(pollMs);
    }
  }

  /** Calls made for the warmer itself (a merged answer carries the calls of whoever made it). */
  const spent = (answer: PageAnswer) => {
    if (answer.cache === 'miss') stats.lookups += answer.attempts ?? 0;
  };

  const note = (answer: Extract<PageAnswer, { kind: 'page' }>) => {
    spent(answer);
    if (answer.cache === 'miss') {
      stats.pages.fetched++;
      warmed.add(answer.page);
    } else if (answer.cache === 'merged') stats.pages.merged++;
    else stats.pages.cached++;
  };

  async function run(warm: Warm): Promise<void> {
    let continuation: string | undefined;
    const seen = new Set<string>();
    try {
      for (;;) {
        const stop = await turn(warm);
        if (stop !== undefined) return end(warm, stop);
        const answer = await pageSource.get(
          { endpoint: 'playlist', id: warm.id, continuation },
          client,
        );
        if (answer.kind === 'problem') {
          spent(answer);
          // Turned away by its own allowance: warming's share of the hour is spent.
          return end(
            warm,
            answer.status === 429 && answer.code === 'rate_limited' ? 'share' : 'failed',
          );
        }
        note(answer);
        const next = continuationOf(answer);
        if (next === null) return end(warm, 'end');
        if (seen.has(next)) return end(warm, 'loop');
        seen.add(next);
        continuation = next;
      }
    } catch {
      // A page that cannot be read (the page source answers rather than throws): stop here.
      end(warm, 'failed');
    }
  }

  return {
    read(id, reader, lookup) {
      if (closed) return;
      if (lookup !== undefined) {
        const page = pageSource.peek(lookup);
        if (page !== undefined && warmed.delete(page)) stats.readByPeople++;
      }
      const at = now();
      // One list per reader: the list they read before stops if nobody else reads it.
      const before = readingOf.get(reader);
      if (before !== undefined && before !== id) {
        readingOf.delete(reader);
        const other = warms.get(before);
        if (other !== undefined) {
          other.readers.delete(reader);
          if (other.readers.size === 0) other.halt ??= 'replaced';
        }
      }
      const current = warms.get(id);
      if (current !== undefined) {
        // Read again: it goes on (even if its readers had left, while its last page was out).
        if (current.halt === 'replaced') current.halt = undefined;
        current.lastReadAt = at;
        current.readers.add(reader);
        readingOf.set(reader, id);
        return;
      }
      // Looking does not make it recent: what counts is when its warming finished.
      const warmedAt = finished.peek(id);
      if (warmedAt !== undefined && at - warmedAt < rewarmAfterMs) {
        stats.skipped.recent++;
        return;
      }
      if (warms.size >= lists) {
        stats.skipped.busy++;
        return;
      }
      // Warming goes on from what the reader was given, never in its place: a first page the
      // reader's own request did not get (refused, failing, slow) is not fetched for them.
      if (pageSource.peek({ endpoint: 'playlist', id, continuation: undefined }) === undefined) {
        stats.skipped.unread++;
        return;
      }
      const warm: Warm = { id, lastReadAt: at, readers: new Set([reader]) };
      warms.set(id, warm);
      readingOf.set(reader, id);
      stats.started++;
      void run(warm);
    },
    stats: () => ({
      ...stats,
      lists: warms.size,
      skipped: { ...stats.skipped },
      stopped: { ...stats.stopped },
      pages: { ...stats.pages },
    }),
    close() {
      closed = true;
      for (const warm of warms.values()) warm.halt = 'closed';
    },
  };
}
