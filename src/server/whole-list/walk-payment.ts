import type { ClientShares } from '../quota/client-shares.ts';
import { together, type QuotaGuard, type Reservation } from '../quota/quota-guard.ts';
import type { WalkPayment } from './list-walk.ts';

// Paying for a walk before it answers: the lookups it was quoted (walk-cost.ts) are reserved
// from the window's quota and from the client's share, so the walk, once accepted, runs to its end
// at the upstream's own speed and nobody else can spend what it needs. A list of unknown length
// (a channel's: no total on its first page, spec §4) is paid for a part at a time, while the
// client's share and the window allow; past that its walk reads as any reader does.

/** A channel's walk reserves this many lookups at a time (3,000 videos). */
export const UNKNOWN_LENGTH_PART = 100;

export type PaymentRefusal = Extract<PaymentAnswer, { ok: false }>;

export type PaymentAnswer =
  | { ok: true; payment: WalkPayment }
  | {
      ok: false;
      /** Whose limit: the client's share, the window's quota, a pause, or no shared count. */
      reason: 'share' | 'quota_exhausted' | 'upstream_rate_limited' | 'unavailable';
      retryAfterSeconds: number;
      /** What the client's share still holds this window. */
      shareLeft: number;
    };

export interface PaymentParts {
  quota: Pick<QuotaGuard, 'reserve' | 'stats'>;
  shares: Pick<ClientShares, 'reserve' | 'room' | 'secondsUntilRoomFor'>;
}

/** The next part of a walk of unknown length: what the client's share and the window allow. */
function partSize({ quota, shares }: PaymentParts, client: string): number {
  const { budget, usedInWindow } = quota.stats();
  return Math.max(0, Math.min(UNKNOWN_LENGTH_PART, shares.room(client), budget - usedInWindow));
}

async function reservePart(
  { quota, shares }: PaymentParts,
  client: string,
  calls: number,
): Promise<{ ok: true; reservation: Reservation } | Extract<PaymentAnswer, { ok: false }>> {
  const share = shares.reserve(client, calls);
  if (!share.ok) {
    return {
      ok: false,
      reason: 'share',
      retryAfterSeconds: share.retryAfterSeconds,
      shareLeft: shares.room(client),
    };
  }
  const reserved = await quota.reserve(calls);
  if (!reserved.ok) {
    share.reservation.release();
    return {
      ok: false,
      reason: reserved.reason,
      retryAfterSeconds: reserved.retryAfterSeconds,
      shareLeft: shares.room(client),
    };
  }
  return { ok: true, reservation: together(reserved.reservation, share.reservation) };
}

/** Reserves a walk's `lookups` (null: unknown) for `client`, or says why it cannot run now. */
export async function payForWalk(
  parts: PaymentParts,
  client: string,
  lookups: number | null,
): Promise<PaymentAnswer> {
  const known = lookups !== null;
  const first = known ? lookups : partSize(parts, client);
  if (!known && first === 0 && parts.shares.room(client) === 0) {
    const retryAfterSeconds = parts.shares.secondsUntilRoomFor(client, 1);
    return { ok: false, reason: 'share', retryAfterSeconds, shareLeft: 0 };
  }
  const opened = await reservePart(parts, client, first);
  if (!opened.ok) return opened;
  const held: Reservation[] = [opened.reservation];
  let current = opened.reservation;
  let more = !known;
  let released = false;
  /** The next part of a walk of unknown length, or none: then it reads on as any reader. */
  const nextPart = async (): Promise<Reservation | undefined> => {
    const size = partSize(parts, client);
    const part = size > 0 ? await reservePart(parts, client, size) : undefined;
    if (part === undefined || !part.ok) {
      more = false;
      return undefined;
    }
    if (released) {
      part.reservation.release();
      return undefined;
    }
    held.push(part.reservation);
    current = part.reservation;
    return current;
  };
  return {
    ok: true,
    payment: {
      forNextPage() {
        // At once while the part in hand lasts (a known length is paid in one part).
        if (current.remaining > 0) return current;
        return more ? nextPart() : undefined;
      },
      release() {
        released = true;
        for (const reservation of held) reservation.release();
      },
    },
  };
}
