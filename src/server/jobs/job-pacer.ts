import type { ClientShares } from '../quota/client-shares.ts';
import type { QuotaGuard } from '../quota/quota-guard.ts';
import { together } from '../whole-list/walk-payment.ts';
import type { JobPacer, PacerAnswer } from './job-runner.ts';

// Room for a job's next lookup, out of the jobs' part of the window only: the guard keeps
// JOB_READER_RESERVE of the window's budget for people reading pages, whom a job never crowds
// out, however long it runs (quota-guard.ts `reserveForJob`, checked and counted in one step,
// with Redis for every replica). The lookup is reserved from the jobs' part and from the
// client's share together (as a synchronous walk's are: whole-list/walk-payment.ts), so the
// page that spends it goes out at once; when either has no room, the answer is how long until
// it has.

export interface JobPacerParts {
  quota: Pick<QuotaGuard, 'reserveForJob' | 'secondsUntilJobRoom' | 'stats'>;
  shares: Pick<ClientShares, 'reserve' | 'room' | 'perClient' | 'secondsUntilRoomFor'>;
  /**
   * JOB_READER_RESERVE, kept of the client's own share too: a job never leaves the person who
   * started it unable to read pages until the window has passed.
   */
  readerReserve: number;
}

export function createJobPacer({ quota, shares, readerReserve }: JobPacerParts): JobPacer {
  const keptForReading = Math.floor(shares.perClient * readerReserve);
  return {
    async take(client): Promise<PacerAnswer> {
      const { pausedForSeconds } = quota.stats();
      if (pausedForSeconds > 0) return { ok: false, retryAfterSeconds: pausedForSeconds };
      if (shares.room(client) <= keptForReading) {
        const seconds = shares.secondsUntilRoomFor(client, keptForReading + 1);
        return { ok: false, retryAfterSeconds: Math.max(1, seconds) };
      }
      const share = shares.reserve(client, 1);
      if (!share.ok) return { ok: false, retryAfterSeconds: share.retryAfterSeconds };
      const window = await quota.reserveForJob(1);
      if (!window.ok) {
        share.reservation.release();
        const seconds =
          window.reason === 'quota_exhausted'
            ? await quota.secondsUntilJobRoom(1)
            : window.retryAfterSeconds;
        return { ok: false, retryAfterSeconds: Math.max(1, seconds) };
      }
      return { ok: true, reservation: together(window.reservation, share.reservation) };
    },
  };
}
