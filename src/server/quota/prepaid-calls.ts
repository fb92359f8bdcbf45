import { AsyncLocalStorage } from 'node:async_hooks';
import type { Reservation } from './quota-guard.ts';

// Who pays for an upstream call. A whole-list walk reserves its quoted lookups before it answers
// (quota-guard.ts, client-shares.ts), then fetches its pages through the same page source as
// any reader: the reservation travels with those requests as context, so the call that goes out
// for one of its pages spends a reserved lookup, not a new permit, and is not paced by the
// client's allowance (the walk's client was charged its share up front). A page the walk gets
// from the cache, or from a request already in flight, spends nothing, and what is left is given
// back when the walk ends.

const payer = new AsyncLocalStorage<Reservation>();

/** Runs `work` with `reservation` paying for the upstream calls it causes. */
export function paidBy<T>(reservation: Reservation | undefined, work: () => T): T {
  return reservation === undefined ? work() : payer.run(reservation, work);
}

/** The reservation paying for calls made here, if it has a call left. */
export function prepaid(): Reservation | undefined {
  const reservation = payer.getStore();
  return reservation !== undefined && reservation.remaining > 0 ? reservation : undefined;
}
