import type { ClientRateLimit, RateDecision } from './client-rate-limit.ts';
import { reservationOf, type Reservation } from './quota-guard.ts';
import { HOUR_SECONDS, windowLayout } from './quota-window.ts';

// Each client's share of the window: besides the burst allowance (client-rate-limit.ts), which
// paces stray scripts second by second, no address may spend more than a fixed part of the
// account's budget per window (10 % by default; the window is CATALOGUE_QUOTA_WINDOW, an hour
// unless set), whether it reads page by page or walks whole lists. A person scrolling spends a
// few dozen lookups an hour and never meets it; one script reading steadily can no longer take
// most of the window from everyone else. A walk reserves its
// quoted lookups from the share before it starts, so that a quoted walk that fits runs at the
// upstream's own speed.
//
// Kept in this process's memory: with replicas, each holds its own count (docs/configuration.md).
// Not a quota guard per client (quota-guard.ts): its window is 14 KB, where a client here costs
// an entry per bucket it spent in (a second, or coarser for windows past an hour, as the guard's:
// quota-window.ts), and most clients spend in a few.

/** Past this many tracked clients, those with nothing spent in the window are forgotten. */
const SWEEP_AT = 10_000;

export type ShareDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface ClientShares {
  /** Lookups each client may spend in a window. */
  readonly perClient: number;
  /** Lookups `client` may still spend in the window. */
  room(client: string): number;
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

export function createClientShares(options: {
  perClient: number;
  /** The quota's window in seconds (default an hour). */
  windowSeconds?: number;
  now?: () => number;
}): ClientShares {
  const { perClient, windowSeconds = HOUR_SECONDS, now = Date.now } = options;
  const windowMs = windowSeconds * 1000;
  const bucketMs = windowLayout(windowSeconds).bucketSeconds * 1000;
  /** Per client: [when, lookups] oldest first, one entry per bucket at most. */
  const spent = new Map<string, Array<[number, number]>>();

  const live = (client: string, at: number): Array<[number, number]> => {
    let entries = spent.get(client);
    if (entries === undefined) {
      if (spent.size >= SWEEP_AT) sweep(at);
      entries = [];
      spent.set(client, entries);
    }
    let old = 0;
    while (old < entries.length && (entries[old] as [number, number])[0] <= at - windowMs) old++;
    if (old > 0) entries.splice(0, old);
    return entries;
  };
  const sweep = (at: number) => {
    for (const [client, entries] of spent)
      if (entries.every(([when]) => when <= at - windowMs)) spent.delete(client);
  };
  const used = (entries: Array<[number, number]>) =>
    entries.reduce((sum, [, calls]) => sum + calls, 0);
  const add = (entries: Array<[number, number]>, at: number, calls: number) => {
    const last = entries.at(-1);
    if (last !== undefined && Math.floor(last[0] / bucketMs) === Math.floor(at / bucketMs)) {
      // The entry leaves with its latest lookup: none of its lookups leaves the window early.
      last[0] = at;
      last[1] += calls;
    } else entries.push([at, calls]);
  };
  /** Seconds until `calls` more fit in the client's share. */
  const waitFor = (entries: Array<[number, number]>, at: number, calls: number) => {
    let excess = used(entries) + calls - perClient;
    if (calls > perClient) return windowMs / 1000;
    for (const [when, spentThen] of entries) {
      excess -= spentThen;
      if (excess <= 0) return Math.max(1, Math.ceil((when + windowMs - at) / 1000));
    }
    return windowMs / 1000;
  };

  return {
    perClient,
    room(client) {
      return Math.max(0, perClient - used(live(client, now())));
    },
    secondsUntilRoomFor(client, calls) {
      const at = now();
      const entries = live(client, at);
      return used(entries) + calls <= perClient ? 0 : waitFor(entries, at, calls);
    },
    take(client) {
      const at = now();
      const entries = live(client, at);
      if (used(entries) + 1 > perClient)
        return { ok: false, retryAfterSeconds: waitFor(entries, at, 1) };
      add(entries, at, 1);
      return { ok: true };
    },
    reserve(client, calls) {
      const at = now();
      const entries = live(client, at);
      if (calls > 0 && used(entries) + calls > perClient)
        return { ok: false, retryAfterSeconds: waitFor(entries, at, calls) };
      const entry: [number, number] = [at, Math.max(0, calls)];
      if (calls > 0) entries.push(entry);
      // What was not spent goes back to the client's share.
      const reservation = reservationOf(Math.max(0, calls), (unspent) => (entry[1] -= unspent));
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
