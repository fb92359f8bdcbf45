import type { AnyPage, UpstreamClient, UpstreamResult } from '../server/upstream/client.ts';
import type { Lookup } from '../server/upstream/lookup.ts';

// For tests only: an in-process stand-in for the upstream client that serves playlists as
// chains of pages (spec §2.6): page 1 without a continuation, page N+1 for the continuation page
// N gave, none after the last. Every call is recorded, answers come a moment later (so that
// calls overlap as real ones do), and a test may hold the answers to a page's calls until it
// lets them go, to have a request in flight while it sends another.

export interface ChainUpstream extends Pick<UpstreamClient, 'fetchPage'> {
  /** Every lookup asked for, in order. */
  calls: Lookup[];
  /** Calls for `id`'s page `n` (1-based). */
  callsFor(id: string, n: number): number;
  /** Holds the answers to calls for page `n` of every list until `release`. */
  hold(n: number): void;
  release(n: number): void;
  /** Resolves once a call for page `n` of `id` has been made (at once if one was). */
  asked(id: string, n: number): Promise<void>;
}

const token = (id: string, n: number) => `${id}+page/${n}=`;

/** The page number a lookup asks for, or NaN for a continuation this upstream never gave. */
function pageNumber(lookup: Lookup): number {
  if (lookup.continuation === undefined) return 1;
  const prefix = `${lookup.id}+page/`;
  if (!lookup.continuation.startsWith(prefix)) return Number.NaN;
  return Number(lookup.continuation.slice(prefix.length, -1));
}

export function chainUpstream(pagesPerList: number): ChainUpstream {
  const calls: Lookup[] = [];
  const held = new Map<number, Array<() => void>>();
  const waiting: Array<{ id: string; n: number; resolve: () => void }> = [];
  const asked = (lookup: Lookup, n: number) => {
    for (const w of [...waiting]) {
      if (w.id === lookup.id && w.n === n) {
        waiting.splice(waiting.indexOf(w), 1);
        w.resolve();
      }
    }
  };
  return {
    calls,
    callsFor: (id, n) => calls.filter((c) => c.id === id && pageNumber(c) === n).length,
    hold(n) {
      if (!held.has(n)) held.set(n, []);
    },
    release(n) {
      const waiters = held.get(n) ?? [];
      held.delete(n);
      for (const go of waiters) go();
    },
    asked(id, n) {
      if (calls.some((c) => c.id === id && pageNumber(c) === n)) return Promise.resolve();
      return new Promise((resolve) => waiting.push({ id, n, resolve }));
    },
    async fetchPage(lookup): Promise<UpstreamResult> {
      calls.push(lookup);
      const n = pageNumber(lookup);
      asked(lookup, n);
      await new Promise((resolve) => setImmediate(resolve));
      const gate = held.get(n);
      if (gate !== undefined) await new Promise<void>((resolve) => gate.push(resolve));
      if (!(n >= 1 && n <= pagesPerList)) {
        return {
          ok: false,
          failure: { kind: 'bad_request', upstreamStatus: 400, code: undefined, detail: 'no' },
          attempts: 1,
        };
      }
      const page: AnyPage = {
        items: [],
        continuation: n < pagesPerList ? token(lookup.id, n + 1) : null,
      };
      return {
        ok: true,
        upstreamStatus: 200,
        body: Buffer.from(JSON.stringify({ n, ...page })),
        page,
        attempts: 1,
      };
    },
  };
}
