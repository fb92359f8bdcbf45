import type { ClientRateLimit, RateDecision } from './client-rate-limit.ts';
import { reservationOf, type Reservation } from './quota-guard.ts';
import { HOUR_SECONDS, windowLayout } from './quota-window.ts';

// Each client's share of the window: no address may spend more than a part of the account's
// budget per window (CLIENT_SHARE_OF_WINDOW), whether it reads page by page or walks whole
// lists, so one script reading steadily cannot take the window from everyone else. A walk
// reserves its quoted lookups from the share before it starts. Kept in this process's memory
// (with replicas, each counts its own: docs/configuration.md), an entry per bucket a client spent
// in, the same buckets as the quota's (quota-window.ts).

/** Past this many tracked clients, those with nothing spent in the window are forgotten. */
const SWEEP_AT = 10_000;

export type ShareDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface ClientShares {
  /** Lookups each client may spend in a window. */
  readonly perClient: number;
  /** Lookups `client` may still spend in the window. */
  room(client: string): number;
  /**
   * What the other clients that have spent in the window may still spend of their shares: a
   * job past its own share leaves them that much (job-pacer.ts).
   */
  othersRoom(client: string): number;
  /** Seconds until `calls` more fit in `client`'s share (0: they fit now). */
  secondsUntilRoomFor(client: string, calls: number): number;
  /** Counts one lookup, or says when the share has room again. */
  take(client: string): ShareDecision;
  /** Counts `calls` at once; the reservation gives back what is not spent. */
  reserve(
    client: string,
    calls: number,
  ): { ok: true; reservation: Reservation } | Extract<ShareDecision, { ok: false }>;
}

/** Lookups counted in one bucket, leaving the window with the latest of them. */
interface Entry {
  when: number;
  calls: number;
  /** Gone from the window: what is given back no longer counts against the share. */
  left: boolean;
}

/**
 * A client's entries, oldest first, one per bucket at most, and their sum: a job asks for room
 * before every lookup, and its entries run to the length of the window in buckets.
 */
interface Spending {
  entries: Entry[];
  used: number;
}

export function createClientShares(options: {
  perClient: number;
  /** The quota's window in seconds (default an hour). */
  windowSeconds?: number;
  now?: () => number;
}): ClientShares {
  const { perClient, windowSeconds = HOUR_SECONDS, now = Date.now } = options;
  const windowMs = windowSeconds * 1000;
  const bucketMs = windowLayout(windowSeconds).bucketSeconds * 1000;
  const spent = new Map<string, Spending>();

  /** The client's spending in the window at `at`, what has left it dropped. */
  const live = (client: string, at: number): Spending => {
    let spending = spent.get(client);
    if (spending === undefined) {
      if (spent.size >= SWEEP_AT) sweep(at);
      spending = { entries: [], used: 0 };
      spent.set(client, spending);
    }
    const { entries } = spending;
    let old = 0;
    while (old < entries.length && entries[old]!.when <= at - windowMs) {
      const leaving = entries[old]!;
      spending.used -= leaving.calls;
      leaving.left = true;
      old++;
    }
    if (old > 0) entries.splice(0, old);
    return spending;
  };
  const sweep = (at: number) => {
    for (const [client, { entries }] of spent)
      if (entries.every(({ when }) => when <= at - windowMs)) spent.delete(client);
  };
  /** Counts `calls` at `at`, in the entry of their bucket; that entry. */
  const add = (spending: Spending, at: number, calls: number): Entry => {
    const last = spending.entries.at(-1);
    spending.used += calls;
    if (last !== undefined && Math.floor(last.when / bucketMs) === Math.floor(at / bucketMs)) {
      // The entry leaves with its latest lookup: none of its lookups leaves the window early.
      last.when = at;
      last.calls += calls;
      return last;
    }
    const entry: Entry = { when: at, calls, left: false };
    spending.entries.push(entry);
    return entry;
  };
  /** Seconds until `calls` more fit in the client's share. */
  const waitFor = ({ entries, used }: Spending, at: number, calls: number) => {
    let excess = used + calls - perClient;
    if (calls > perClient) return windowMs / 1000;
    for (const { when, calls: spentThen } of entries) {
      excess -= spentThen;
      if (excess <= 0) return Math.max(1, Math.ceil((when + windowMs - at) / 1000));
    }
    return windowMs / 1000;
  };

  return {
    perClient,
    room(client) {
      return Math.max(0, perClient - live(client, now()).used);
    },
    othersRoom(client) {
      const at = now();
      let room = 0;
      for (const other of [...spent.keys()]) {
        if (other === client) continue;
        const { entries, used } = live(other, at);
        if (entries.length > 0) room += Math.max(0, perClient - used);
      }
      return room;
    },
    secondsUntilRoomFor(client, calls) {
      const at = now();
      const spending = live(client, at);
      return spending.used + calls <= perClient ? 0 : waitFor(spending, at, calls);
    },
    take(client) {
      const at = now();
      const spending = live(client, at);
      if (spending.used + 1 > perClient)
        return { ok: false, retryAfterSeconds: waitFor(spending, at, 1) };
      add(spending, at, 1);
      return { ok: true };
    },
    reserve(client, calls) {
      const at = now();
      const spending = live(client, at);
      if (calls > 0 && spending.used + calls > perClient)
        return { ok: false, retryAfterSeconds: waitFor(spending, at, calls) };
      const entry = calls > 0 ? add(spending, at, calls) : undefined;
      // What was not spent goes back to the client's share (unless it has left the window).
      const reservation = reservationOf(Math.max(0, calls), (unspent) => {
        if (entry === undefined) return;
        entry.calls -= unspent;
        if (!entry.left) spending.used -= unspent;
      });
      return { ok: true, reservation };
    },
  };
}

/** `allowance` first (the burst and its pace), then the client's share of the window. */
export function withClientShares(
  allowance: ClientRateLimit,
  shares: Pick<ClientShares, 'take'>,
): ClientRateLimit {
  const then = (client: string, decision: RateDecision): RateDecision => {
    if (!decision.ok) return decision;
    const share = shares.take(client);
    return share.ok ? share : { ...share, limit: 'share' };
  };
  return {
    take(client) {
      const decision = allowance.take(client);
      return decision instanceof Promise
        ? decision.then((d) => then(client, d))
        : then(client, decision);
    },
  };
}
