import type { AnyPage, UpstreamClient, UpstreamResult } from '../server/upstream/client.ts';
import type { UpstreamFailure } from '../server/upstream/failure.ts';
import type { Lookup } from '../server/upstream/lookup.ts';

// For tests only: an in-process stand-in for the upstream client (upstream/client.ts), for
// code that takes the client as a dependency. It answers from a script, one result per call,
// a moment later (so that calls overlap as real ones do), and records every lookup it is
// asked for. A call beyond the script fails the test that made it.

export interface ScriptedUpstreamClient extends Pick<UpstreamClient, 'fetchPage'> {
  /** Every lookup asked for, in order. */
  calls: Lookup[];
}

/**
 * A page from the upstream, its body `body`; `page` stands for what the schema check parsed
 * (an empty page unless the test needs the data).
 */
export const upstreamPage = (
  body: string,
  attempts = 1,
  page: AnyPage = { items: [], continuation: null },
): UpstreamResult => ({
  ok: true,
  upstreamStatus: 200,
  body: Buffer.from(body),
  page,
  attempts,
});

/** A failed upstream call. */
export const upstreamFailure = (failure: UpstreamFailure, attempts = 1): UpstreamResult => ({
  ok: false,
  failure,
  attempts,
});

export function scriptedUpstreamClient(script: readonly UpstreamResult[]): ScriptedUpstreamClient {
  const remaining = [...script];
  const calls: Lookup[] = [];
  return {
    calls,
    async fetchPage(lookup) {
      calls.push(lookup);
      await new Promise((resolve) => setImmediate(resolve));
      const next = remaining.shift();
      if (next === undefined) throw new Error(`upstream call ${calls.length} is beyond the script`);
      return next;
    },
  };
}
