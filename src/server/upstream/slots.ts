import type { BreakerReason } from './breaker.ts';
import type { UpstreamClient } from './client.ts';

// At most `limit` upstream calls in flight at once; up to `queueLimit` more wait for a slot, in
// order of arrival, and beyond that a call is turned away at once (the caller answers 503 with
// a Retry-After). It keeps a burst of cold pages from opening hundreds of connections to the
// upstream, and keeps the explorer's own memory and sockets bounded when the upstream slows
// down. The wait counts against the call's deadline: a waiter whose signal aborts leaves the
// queue there and then, so a hanging upstream cannot fill the queue with callers long gone.
// (cockatiel's bulkhead keeps an aborted waiter queued until a slot frees, which is why this
// is written here.)

export type SlotGrant =
  { ok: true; release: () => void } | { ok: false; reason: 'full' | 'aborted' };

export interface SlotStats {
  /** Calls holding a slot. */
  active: number;
  /** Calls waiting for one. */
  queued: number;
  limit: number;
  queueLimit: number;
  /** Calls turned away because the queue was full, since start. */
  rejected: number;
}

export interface UpstreamSlots {
  /** Waits for a slot (or says why there is none); a granted slot must be released once. */
  acquire(signal: AbortSignal): Promise<SlotGrant>;
  stats(): SlotStats;
}

interface Waiter {
  grant: (grant: SlotGrant) => void;
}

export function createUpstreamSlots(options: { limit: number; queueLimit: number }): UpstreamSlots {
  const { limit, queueLimit } = options;
  let active = 0;
  let rejected = 0;
  // A Set keeps arrival order and lets an aborted waiter leave from the middle in O(1).
  const waiting = new Set<Waiter>();

  const granted = (): SlotGrant => {
    active++;
    let released = false;
    return {
      ok: true,
      release() {
        if (released) return;
        released = true;
        active--;
        const next = waiting.values().next();
        if (!next.done) {
          waiting.delete(next.value);
          next.value.grant(granted());
        }
      },
    };
  };

  return {
    acquire(signal) {
      if (signal.aborted) return Promise.resolve({ ok: false, reason: 'aborted' });
      if (active < limit) return Promise.resolve(granted());
      if (waiting.size >= queueLimit) {
        rejected++;
        return Promise.resolve({ ok: false, reason: 'full' });
      }
      return new Promise<SlotGrant>((resolve) => {
        const onAbort = () => {
          waiting.delete(waiter);
          resolve({ ok: false, reason: 'aborted' });
        };
        const waiter: Waiter = {
          grant(grant) {
            signal.removeEventListener('abort', onAbort);
            resolve(grant);
          },
        };
        waiting.add(waiter);
        signal.addEventListener('abort', onAbort, { once: true });
      });
    },
    stats: () => ({ active, queued: waiting.size, limit, queueLimit, rejected }),
  };
}

/**
 * `upstream` with each page call waiting for a slot first. A call turned away (queue full, or
 * no slot within `waitMs`) never reaches the upstream: it fails as unreachable with no attempt,
 * which the breaker and the back-off take as saying nothing about the upstream. Once it has its
 * slot, `held` is asked whether calls may go now (the breaker may have opened while it waited):
 * if not, it fails as held, also with no attempt.
 */
export function withSlots<U extends Pick<UpstreamClient, 'fetchPage'>>(
  upstream: U,
  slots: UpstreamSlots,
  waitMs: number,
  held: () => { reason: BreakerReason; retryAfterSeconds: number } | null = () => null,
): U {
  return {
    ...upstream,
    async fetchPage(lookup) {
      const grant = await slots.acquire(AbortSignal.timeout(waitMs));
      if (!grant.ok) {
        return {
          ok: false,
          failure: {
            kind: 'unreachable',
            upstreamStatus: undefined,
            reason:
              grant.reason === 'full' ? 'too many upstream calls waiting' : 'no free slot in time',
          },
          attempts: 0,
        };
      }
      try {
        const holding = held();
        if (holding !== null)
          return {
            ok: false,
            failure: { kind: 'held', upstreamStatus: undefined, ...holding },
            attempts: 0,
          };
        return await upstream.fetchPage(lookup);
      } finally {
        // After the caller has recorded this call's outcome, which may open the breaker: the
        // next call in line then asks `held` knowing it.
        setImmediate(grant.release);
      }
    },
  };
}
