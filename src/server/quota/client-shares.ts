import type { ClientRateLimit, RateDecision } from './client-rate-limit.ts';
import { reservationOf, type Reservation } from './quota-guard.ts';

// Each client's share of the hour: besides the burst allowance (client-rate-limit.ts), which
// paces stray scripts second by second, no address may spend more than a fixed part of the
// account's hourly budget (10 % by default), whether it reads page by page or walks whole
// lists. A person scrolling spends a few dozen lookups an hour and never meets it; one script
// reading steadily can no longer take most of the hour from everyone else. A walk reserves its
// quoted lookups from the share before it starts, so that a quoted walk that fits runs at the
// upstream's own speed.
//
// Kept in this process's memory: with replicas, each holds its own count (docs/configuration.md).
// Not a quota guard per client (quota-guard.ts): its second-by-second window is 14 KB, where a
// client here costs an entry per second it spent in, and most clients spend in a few.

const WINDOW_MS = 3600_000;
/** Past this many tracked clients, those with nothing spent in the hour are forgotten. */
const SWEEP_AT = 10_000;

export type ShareDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

export interface ClientShares {
  /** Lookups each client may spend in an hour. */
  readonly perClient: number;
  /** Lookups `client` may still spend in the hour. */
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
  now?: () => number;
}): ClientShares {
  const { perClient, now = Date.now } = options;
  /** Per client: [when, lookups] oldest first, one entry per second at most. */
  const spent = new Map<string, Array<[number, number]>>();

  const live = (client: string, at: number): Array<[number, number]> => {
    let entries = spent.get(client);
    if (entries === undefined) {
      if (spent.size >= SWEEP_AT) sweep(at);
      entries = [];
      spent.set(client, entries);
    }
    let old = 0;
    while (old < entries.length && (entries[old] as [number, number])[0] <= at - WINDOW_MS) old++;
    if (old > 0) entries.splice(0, old);
    return entries;
  };
  const sweep = (at: number) => {
    for (const [client, entries] of spent)
      if (entries.every(([when]) => when <= at - WINDOW_MS)) spent.delete(client);
  };
  const used = (entries: Array<[number, number]>) =>
    entries.reduce((sum, [, calls]) => sum + calls, 0);
  const add = (entries: Array<[number, number]>, at: number, calls: number) => {
    const last = entries.at(-1);
    if (last !== undefined && Math.floor(last[0] / 1000) === Math.floor(at / 1000))
      last[1] += calls;
    else entries.push([at, calls]);
  };
  /** Seconds until `calls` more fit in the client's share. */
  const waitFor = (entries: Array<[number, number]>, at: number, calls: number) => {
    let excess = used(entries) + calls - perClient;
    if (calls > perClient) return WINDOW_MS / 1000;
    for (const [when, spentThen] of entries) {
      excess -= spentThen;
      if (excess <= 0) return Math.max(1, Math.ceil((when + WINDOW_MS - at) / 1000));
    }
    return WINDOW_MS / 1000;
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

/** `allowance` first (the burst and its pace), then the client's share of the hour. */
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
