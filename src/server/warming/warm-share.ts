import { randomUUID } from 'node:crypto';
import type { ClientRateLimit, RateDecision } from '../quota/client-rate-limit.ts';
import type { QuotaDecision, QuotaGuard } from '../quota/quota-guard.ts';

// The warmer reads through the page source like any client (chain-warmer.ts), so its requests
// meet the cache, merging and admission as anyone's do. Where a person's request that would
// spend quota takes from the person's allowance, the warmer's takes from warming's share of
// the hour (CHAIN_WARM_SHARE of the quota, a sliding hour of its own, shared by replicas):
// admission (pages/admission.ts) asks the allowance before any call, so a spent share turns
// the warmer away exactly as a spent allowance turns a client away, with no quota spent.

/** The warmer's name as a client: no address can be it, and nobody can guess it. */
export const warmerClient = (): string => `chain-warmer ${randomUUID()}`;

const asAllowance = (decision: QuotaDecision): RateDecision =>
  decision.ok ? decision : { ok: false, retryAfterSeconds: decision.retryAfterSeconds };

/** `people`, except that `warmer`'s requests draw on `share` instead. */
export function withWarmShare(
  people: ClientRateLimit,
  warmer: string,
  share: Pick<QuotaGuard, 'tryAcquire'>,
): ClientRateLimit {
  return {
    take(client) {
      if (client !== warmer) return people.take(client);
      const decision = share.tryAcquire();
      return decision instanceof Promise ? decision.then(asAllowance) : asAllowance(decision);
    },
  };
}
