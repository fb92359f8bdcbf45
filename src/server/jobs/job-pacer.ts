import type { ClientShares } from '../quota/client-shares.ts';
import { together, type QuotaGuard, type Reservation } from '../quota/quota-guard.ts';
import type { JobPacer, PacerAnswer } from './job-runner.ts';

// Room for a job's next lookup, out of the jobs' part of the window only, so a job never
// crowds out people reading pages (quota-guard.ts `reserveForJob`). Within its client's share a
// lookup is reserved from the jobs' part and the share together. Past the share, the job goes on
// with what nobody else can claim: the jobs' part less what the window's other clients may still
// spend of their shares. A share is what a client is guaranteed, not a ceiling on an idle
// window. Without room, the answer is how long until there is.

export interface JobPacerParts {
  quota: Pick<QuotaGuard, 'reserveForJob' | 'secondsUntilJobRoom' | 'stats'>;
  shares: Pick<ClientShares, 'reserve' | 'room' | 'othersRoom' | 'perClient'>;
  /**
   * JOB_READER_RESERVE, kept of the client's own share too: a job never leaves the person who
   * started it unable to read pages until the window has passed.
   */
  readerReserve: number;
}

/** How soon a job past its share asks again, when others' shares are what holds it. */
const BORROW_RECHECK_SECONDS = 1;

export function createJobPacer({ quota, shares, readerReserve }: JobPacerParts): JobPacer {
  const keptForReading = Math.floor(shares.perClient * readerReserve);

  /** One lookup from the jobs' part, with `also` given back if there is none. */
  async function fromWindow(also?: Reservation): Promise<PacerAnswer> {
    const window = await quota.reserveForJob(1);
    if (!window.ok) {
      also?.release();
      const seconds =
        window.reason === 'quota_exhausted'
          ? await quota.secondsUntilJobRoom(1)
          : window.retryAfterSeconds;
      return { ok: false, retryAfterSeconds: Math.max(1, seconds) };
    }
    return {
      ok: true,
      reservation: also === undefined ? window.reservation : together(window.reservation, also),
    };
  }

  return {
    async take(client): Promise<PacerAnswer> {
      const { pausedForSeconds, budget, usedInWindow } = quota.stats();
      if (pausedForSeconds > 0) return { ok: false, retryAfterSeconds: pausedForSeconds };
      if (shares.room(client) > keptForReading) {
        const share = shares.reserve(client, 1);
        if (!share.ok) return { ok: false, retryAfterSeconds: share.retryAfterSeconds };
        return fromWindow(share.reservation);
      }
      // Past its share: only what the window has beyond what every client may still claim,
      // the reading part of this one's own share among them.
      const claimed = shares.othersRoom(client) + shares.room(client);
      if (usedInWindow + 1 + claimed > budget)
        return { ok: false, retryAfterSeconds: BORROW_RECHECK_SECONDS };
      return fromWindow();
    },
  };
}
