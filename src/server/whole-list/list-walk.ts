import { abortableSleep } from '../../shared/abortable-sleep.ts';
import type { EndpointPage } from '../../shared/endpoints.ts';
import {
  WALKS_PER_CLIENT,
  type ListKind,
  type WalkProgress,
  type WalkStop,
} from '../../shared/whole-list.ts';
import type { PageSource } from '../pages/page-source.ts';
import type { PageAnswer } from '../pages/page-entry.ts';
import { paidBy } from '../quota/prepaid-calls.ts';
import type { Reservation } from '../quota/quota-guard.ts';
import {
  LOCAL_WALK_LEASES,
  type LeaseAnswer,
  type WalkLease,
  type WalkLeases,
} from './walk-leases.ts';

// Walking a whole list's continuation chain (spec §2.6), each page through the page source like
// any lookup, so a walk after browsing costs only the pages not cached, and many clients' walks
// of one list cost the upstream one. A walk holds one page at a time and stops when its reader
// does. The registry counts walks per list and per client (WALKS_PER_CLIENT), leased across
// replicas (walk-leases.ts); past `walksAtOnce` a walk waits in line for a while, then is refused.
// A paid walk's calls spend its reservation (quota/prepaid-calls.ts). Jobs are to take this over
// (docs/decisions/0005-one-whole-list-engine.md).

export interface WalkedPage<L extends ListKind = ListKind> {
  /** The continuation the page was asked for with; null for the first page. */
  param: string | null;
  /** The page as the upstream sent it, byte for byte. */
  body: Buffer;
  page: EndpointPage<L>;
  /** 1-based position in the list of the page's first item. */
  firstPosition: number;
}

export type WalkEnd =
  | { complete: true; stoppedBy: null }
  | { complete: false; stoppedBy: WalkStop & { status: number } };

/** What pays for a walk's upstream calls (routes/whole-list.ts reserves it). */
export interface WalkPayment {
  /** The reservation for the next page: topped up first where the list's length is unknown. */
  forNextPage(): Reservation | undefined | Promise<Reservation | undefined>;
  /** Gives back what was not spent. */
  release(): void;
}

export interface ListWalk<L extends ListKind = ListKind> {
  readonly list: L;
  readonly id: string;
  /** From now on the walk's pages are paid by `payment`, released with the walk. */
  pay(payment: WalkPayment): void;
  /** The next page, or the walk's end. A stopped walk (aborted, released) ends incomplete. */
  next(): Promise<{ done: false; value: WalkedPage<L> } | { done: true; end: WalkEnd }>;
  /** Where this walk stands; `totalItems` once the first page stated it. */
  progress(): WalkProgress;
  /** The walk is over for this reader: it leaves the registry. Idempotent. */
  release(): void;
}

export interface WalkStats {
  /** Lists being walked now. */
  lists: number;
  /** Walks running now (readers of those lists). */
  walks: number;
  /** Walks that opened a list no one was walking. */
  started: number;
  /** Walks that joined a list someone was already walking. */
  joined: number;
  /** Walks waiting for a free slot. */
  queued: number;
}

export interface OpenOptions {
  /** The reader's request: when it is aborted, the walk is over. */
  signal?: AbortSignal;
  /** The list's first page, when the caller has just read it: the walk starts from it. */
  first?: Extract<PageAnswer, { kind: 'page' }>;
  /**
   * The last position the reader wants (a range's end): the walk reads no page past the one
   * holding it, not even ahead.
   */
  until?: number;
}

export type WalkOpened<L extends ListKind> =
  | { ok: true; walk: ListWalk<L> }
  /** The client runs its share of walks already. */
  | { ok: false; reason: 'client'; retryAfterSeconds: number }
  /** The line for a free slot took too long: the place it had, and a fair wait. */
  | { ok: false; reason: 'busy'; position: number; retryAfterSeconds: number };

export interface WalkRegistry {
  /**
   * A walk of `list` for `client`, or a refusal when the client runs too many already. At
   * once in memory; shared through Redis, after asking it.
   */
  open<L extends ListKind>(
    list: L,
    id: string,
    client: string,
    options?: OpenOptions,
  ): WalkOpened<L> | Promise<WalkOpened<L>>;
  stats(): WalkStats;
}

interface ListEntry {
  readers: number;
}

/** Stop after this many pages: a chain longer than any real list is a loop upstream. */
const MAX_PAGES = 100_000;

/** Longest wait for the client's allowance before going on (it refills at its own pace). */
const MAX_ALLOWANCE_WAIT_MS = 10_000;

/** How long a walk waits in line for a free slot before it is refused. */
const QUEUE_WAIT_MS = 20_000;

export function createWalkRegistry(options: {
  pageSource: Pick<PageSource, 'get'>;
  walksPerClient?: number;
  /** Walks running at once in this process. */
  walksAtOnce?: number;
  queueWaitMs?: number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Where walks are counted beyond this process (walk-leases.ts). */
  leases?: WalkLeases;
}): WalkRegistry {
  const {
    pageSource,
    walksPerClient = WALKS_PER_CLIENT,
    walksAtOnce = Number.POSITIVE_INFINITY,
    queueWaitMs = QUEUE_WAIT_MS,
    sleep = abortableSleep,
    leases = LOCAL_WALK_LEASES,
  } = options;
  const lists = new Map<string, ListEntry>();
  const perClient = new Map<string, number>();
  let started = 0;
  let joined = 0;
  let walks = 0;
  /** Walks waiting for a slot, first come first served. */
  const line: Array<() => void> = [];
  /** How long recent walks took, for a refused walk's wait. */
  const durations: number[] = [];
  const noteDuration = (ms: number) => {
    durations.push(ms);
    if (durations.length > 32) durations.shift();
  };
  /** Slots held: by running walks, and by walks being opened in one. */
  let slots = 0;
  /** A slot freed: the first in line takes it. */
  const freeSlot = () => {
    slots--;
    if (line.length > 0 && slots < walksAtOnce) {
      slots++;
      line.shift()?.();
    }
  };

  /** Resolves true once a slot is this walk's, false when the wait ran out or was aborted. */
  function waitForSlot(
    signal: AbortSignal | undefined,
  ): Promise<{ ok: true } | { ok: false; position: number }> {
    return new Promise((resolve) => {
      const take = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', leave);
        resolve({ ok: true });
      };
      const leave = () => {
        const position = line.indexOf(take) + 1;
        if (position > 0) line.splice(position - 1, 1);
        clearTimeout(timer);
        signal?.removeEventListener('abort', leave);
        resolve({ ok: false, position });
      };
      const timer = setTimeout(leave, queueWaitMs);
      signal?.addEventListener('abort', leave, { once: true });
      line.push(take);
    });
  }

  function openHere<L extends ListKind>(
    list: L,
    id: string,
    client: string,
    { signal, first, until = Number.POSITIVE_INFINITY }: OpenOptions,
    lease: WalkLease,
  ): WalkOpened<L> {
    const running = perClient.get(client) ?? 0;
    if (running >= walksPerClient) {
      lease.release();
      return { ok: false, reason: 'client', retryAfterSeconds: 5 };
    }
    perClient.set(client, running + 1);
    walks++;
    const key = `${list} ${id}`;
    let entry = lists.get(key);
    if (entry === undefined) {
      entry = { readers: 0 };
      lists.set(key, entry);
    }
    // Whether the list was being read anywhere: the deployment's count when it is shared.
    if (lease.joined ?? entry.readers > 0) joined++;
    else started++;
    entry.readers++;
    const reading = entry;

    const stop = new AbortController();
    let released = false;
    let payment: WalkPayment | undefined;
    const openedAt = performance.now();
    const release = () => {
      if (released) return;
      released = true;
      stop.abort();
      signal?.removeEventListener('abort', release);
      lease.release();
      payment?.release();
      noteDuration(performance.now() - openedAt);
      walks--;
      freeSlot();
      const left = (perClient.get(client) ?? 1) - 1;
      if (left === 0) perClient.delete(client);
      else perClient.set(client, left);
      if (--reading.readers === 0) lists.delete(key);
    };
    // The reader went away (its request was aborted): the walk is over, whether or not
    // anything asks for its next page again.
    if (signal?.aborted) release();
    else signal?.addEventListener('abort', release, { once: true });

    const mine: WalkProgress = { pages: 0, items: 0, totalItems: null };
    /** The continuation of the next page; undefined once the chain has ended. */
    let param: string | null | undefined = null;
    /**
     * The next page's answer, asked for as soon as its continuation was known: the reader's
     * work on a page (a summary's sums, an export's text and its way to the client) overlaps
     * the upstream's on the next. One page ahead at most: memory stays at two pages.
     */
    let ahead: PageAnswer | Promise<PageAnswer> | undefined = first;
    const seen = new Set<string>();
    /** How the walk ends once the page in hand is read (a loop in the chain ends it early). */
    let after: WalkEnd = { complete: true, stoppedBy: null };
    let end: WalkEnd | undefined;

    const finish = (result: WalkEnd) => {
      end = result;
      release();
      return { done: true as const, end: result };
    };
    const stopped = (): WalkEnd => ({
      complete: false,
      stoppedBy: { status: 499, code: 'walk_stopped', detail: 'The walk was stopped.' },
    });

    /** A page through the page source, paid by the walk's reservation when it has one. */
    const fetchPage = (continuation: string | null): Promise<PageAnswer> => {
      const lookup = { endpoint: list, id, continuation: continuation ?? undefined };
      const ask = (reservation: Reservation | undefined) =>
        paidBy(reservation, () => pageSource.get(lookup, client));
      const reservation = payment?.forNextPage();
      return reservation instanceof Promise ? reservation.then(ask) : ask(reservation);
    };

    const walk: ListWalk<typeof list> = {
      list,
      id,
      pay(paidWith) {
        if (released) paidWith.release();
        else payment = paidWith;
      },
      progress: () => ({ ...mine }),
      release,
      async next() {
        if (end !== undefined) return { done: true, end };
        if (param === undefined) return finish(after);
        for (;;) {
          if (stop.signal.aborted) return finish(stopped());
          const answer = await (ahead ?? fetchPage(param));
          ahead = undefined;
          if (stop.signal.aborted) return finish(stopped());
          if (answer.kind === 'problem') {
            // The client's own allowance paces a walk rather than ending it: wait for the
            // next token, as a reader scrolling would. Everything else ends the walk.
            if (answer.code === 'rate_limited' && answer.status === 429) {
              const wait = Math.min(MAX_ALLOWANCE_WAIT_MS, (answer.retryAfterSeconds ?? 1) * 1000);
              await sleep(wait, stop.signal);
              continue;
            }
            return finish({
              complete: false,
              stoppedBy: {
                status: answer.status,
                code: answer.code,
                detail: answer.detail,
                retryAfter: answer.retryAfterSeconds,
              },
            });
          }
          const { body } = answer.page;
          // A page just fetched was parsed by the upstream client's check: not twice.
          const page = (answer.data ?? JSON.parse(body.toString('utf8'))) as EndpointPage<
            typeof list
          >;
          const value: WalkedPage<typeof list> = {
            param,
            body,
            page,
            firstPosition: mine.items + 1,
          };
          mine.pages++;
          mine.items += page.items.length;
          if ('info' in page && page.info !== undefined) mine.totalItems = page.info.totalItems;
          const next = page.continuation;
          if (next === null || next === '') {
            param = undefined;
          } else if (seen.has(next) || mine.pages >= MAX_PAGES) {
            // The upstream sent a continuation it sent before: the chain loops. What was
            // read is the list; say it ended early.
            after = {
              complete: false,
              stoppedBy: {
                status: 502,
                code: 'upstream_bad_response',
                detail: 'The catalogue repeated a continuation: the list ends here.',
              },
            };
            param = undefined;
          } else if (mine.items >= until) {
            // The reader has what it asked for.
            param = undefined;
          } else {
            seen.add(next);
            param = next;
            ahead = fetchPage(next);
          }
          return { done: false, value };
        }
      },
    };
    return { ok: true, walk };
  }

  return {
    open(list, id, client, openOptions = {}) {
      const opened = (leased: LeaseAnswer): WalkOpened<typeof list> =>
        leased.ok
          ? openHere(list, id, client, openOptions, leased.lease)
          : { ok: false, reason: 'client', retryAfterSeconds: leased.retryAfterSeconds };
      /** The walk in a slot it holds: a refusal frees the slot. */
      const inSlot = (): WalkOpened<typeof list> | Promise<WalkOpened<typeof list>> => {
        const settle = (answer: WalkOpened<typeof list>) => {
          if (!answer.ok) freeSlot();
          return answer;
        };
        const leased = leases.acquire(client, `${list} ${id}`);
        return leased instanceof Promise
          ? leased.then(opened).then(settle)
          : settle(opened(leased));
      };
      if (slots < walksAtOnce && line.length === 0) {
        slots++;
        return inSlot();
      }
      return waitForSlot(openOptions.signal).then((slot) => {
        // Handed over by the walk that ended, the slot already counted for this one.
        if (slot.ok) return inSlot();
        // A fair wait: the walks ahead in line, each about as long as walks have been taking.
        const typical = durations.length === 0 ? 5_000 : median(durations);
        const rounds = Math.ceil(Math.max(1, slot.position) / Math.min(walksAtOnce, 1e6));
        return {
          ok: false as const,
          reason: 'busy' as const,
          position: slot.position,
          retryAfterSeconds: Math.max(1, Math.ceil((rounds * typical) / 1000)),
        };
      });
    },
    stats: () => ({ lists: lists.size, walks, started, joined, queued: line.length }),
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}
