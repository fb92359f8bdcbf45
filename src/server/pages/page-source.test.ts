import { brotliDecompressSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  scriptedUpstreamClient,
  upstreamFailure,
  upstreamPage,
} from '../../test-support/scripted-upstream-client.ts';
import { createClientRateLimit } from '../quota/client-rate-limit.ts';
import { KEPT_COPY_BYTES } from './memory-cost.ts';
import { buildPageSource } from './build-page-source.ts';
import type { PageAnswer } from './page-entry.ts';
import type { UpstreamResult } from '../upstream/client.ts';
import type { Lookup } from '../upstream/lookup.ts';
import { NO_SECOND_LEVEL, type SecondLevel } from './second-level.ts';

// The page source on its own: cache, then a request in flight, then the client's allowance,
// then the upstream, then a stale copy. Its upstream is a scripted stand-in for the upstream
// client, and its clock is the test's; every other part (cache, merging, allowance) is real.

const PLAYLIST = 'PLcatalogueDemoPlaylist0101items00';
const OTHER = 'PLbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
const first: Lookup = { endpoint: 'playlist', id: PLAYLIST, continuation: undefined };
const other: Lookup = { endpoint: 'playlist', id: OTHER, continuation: undefined };
const second: Lookup = { endpoint: 'playlist', id: PLAYLIST, continuation: 'next+/=' };

const FRESH_MS = 60_000;
const STALE_MS = 600_000;
const REFUSAL_MS = 30_000;

const P1 = '{"page":1}';
const P2 = '{"page":2}';

interface Step {
  /** How far the clock moves before this step's requests. */
  advanceMs?: number;
  lookup?: Lookup;
  /** One request per client, all sent at once; by default one from client `a`. */
  clients?: string[];
  /** Each answer, in the order of `clients` (the page as its body text). */
  expect: object[];
}

interface Case {
  name: string;
  /** The upstream's answers, in order. */
  upstream: UpstreamResult[];
  /** Each client's burst of new pages (the refill is negligible: one per 1000 s). */
  burst?: number;
  steps: Step[];
}

/** A page answer as compared: the stored page reduced to its body text. */
function summary(answer: PageAnswer): object {
  if (answer.kind === 'problem') return answer;
  // The parsed copy a fresh fetch carries is the body's, read once more: not a field to compare.
  const { page, data: _parsed, ...rest } = answer;
  return { ...rest, body: page.body.toString() };
}

const page = (cache: string, body: string, extra: object = {}) => ({
  kind: 'page',
  cache,
  body,
  ...extra,
});
const fromUpstream = (attempts = 1) => ({ upstreamStatus: 200, attempts });
const problem = (status: number, code: string, extra: object = {}) => ({
  kind: 'problem',
  status,
  code,
  detail: expect.any(String),
  ...extra,
});

const serverError = upstreamFailure({ kind: 'server_error', upstreamStatus: 500 }, 3);
const quotaExhausted = upstreamFailure(
  { kind: 'quota_exhausted', upstreamStatus: undefined, retryAfterSeconds: 1800 },
  0,
);
const notFound = upstreamFailure({
  kind: 'not_found',
  upstreamStatus: 404,
  code: undefined,
  detail: undefined,
});

const cases: Case[] = [
  {
    name: 'a fresh page in the cache is a hit, without an upstream call',
    upstream: [upstreamPage(P1)],
    steps: [
      { expect: [page('miss', P1, fromUpstream())] },
      { advanceMs: FRESH_MS - 1, expect: [page('hit', P1)] },
      { clients: ['b', 'c'], expect: [page('hit', P1), page('hit', P1)] },
    ],
  },
  {
    name: 'a miss asks the upstream; a page no longer fresh is asked for again',
    upstream: [upstreamPage(P1), upstreamPage(P2, 2)],
    steps: [
      { expect: [page('miss', P1, fromUpstream())] },
      { advanceMs: FRESH_MS, expect: [page('miss', P2, fromUpstream(2))] },
      { expect: [page('hit', P2)] },
    ],
  },
  {
    name: 'each page has a cache entry of its own',
    upstream: [upstreamPage(P1), upstreamPage(P2)],
    steps: [
      { expect: [page('miss', P1, fromUpstream())] },
      { lookup: second, expect: [page('miss', P2, fromUpstream())] },
      { expect: [page('hit', P1)] },
      { lookup: second, expect: [page('hit', P2)] },
    ],
  },
  {
    name: 'identical requests in flight are merged into one upstream call',
    upstream: [upstreamPage(P1)],
    steps: [
      {
        clients: ['a', 'b', 'c'],
        expect: [
          page('miss', P1, fromUpstream()),
          page('merged', P1, fromUpstream()),
          page('merged', P1, fromUpstream()),
        ],
      },
      { expect: [page('hit', P1)] },
    ],
  },
  {
    name: 'merged requests share a failure too, and it is not kept',
    upstream: [serverError, upstreamPage(P1)],
    steps: [
      {
        clients: ['a', 'b'],
        expect: [
          problem(502, 'upstream_error', { cache: 'miss', upstreamStatus: 500, attempts: 3 }),
          problem(502, 'upstream_error', { cache: 'merged', upstreamStatus: 500, attempts: 3 }),
        ],
      },
      { expect: [page('miss', P1, fromUpstream())] },
    ],
  },
  {
    name: 'a client whose allowance is spent gets 429 and spends no quota; hits and merges are free',
    upstream: [upstreamPage(P1), upstreamPage(P2)],
    burst: 1,
    steps: [
      {
        clients: ['a', 'a'],
        expect: [page('miss', P1, fromUpstream()), page('merged', P1, fromUpstream())],
      },
      {
        lookup: other,
        expect: [problem(429, 'rate_limited', { cache: 'none', retryAfterSeconds: 1000 })],
      },
      { expect: [page('hit', P1)] },
      { lookup: other, clients: ['b'], expect: [page('miss', P2, fromUpstream())] },
    ],
  },
  {
    name: 'a client whose allowance is spent gets the stale copy when there is one',
    upstream: [upstreamPage(P1)],
    burst: 1,
    steps: [
      { expect: [page('miss', P1, fromUpstream())] },
      { advanceMs: FRESH_MS, expect: [page('stale', P1)] },
    ],
  },
  {
    name: 'quota exhausted: 429 with the wait the quota guard named, asked again next time',
    upstream: [quotaExhausted, upstreamPage(P1)],
    steps: [
      {
        expect: [
          problem(429, 'quota_exhausted', { cache: 'miss', retryAfterSeconds: 1800, attempts: 0 }),
        ],
      },
      { expect: [page('miss', P1, fromUpstream())] },
    ],
  },
  {
    name: 'quota exhausted with a stale copy at hand: the stale copy',
    upstream: [upstreamPage(P1), quotaExhausted],
    steps: [
      { expect: [page('miss', P1, fromUpstream())] },
      { advanceMs: FRESH_MS, expect: [page('stale', P1, { attempts: 0 })] },
    ],
  },
  {
    name: 'an upstream failure with a stale copy at hand: the stale copy, and the next request asks again',
    upstream: [upstreamPage(P1), serverError, upstreamPage(P2)],
    steps: [
      { expect: [page('miss', P1, fromUpstream())] },
      {
        advanceMs: FRESH_MS,
        clients: ['a', 'b'],
        expect: [
          page('stale', P1, { upstreamStatus: 500, attempts: 3 }),
          page('stale', P1, { upstreamStatus: 500, attempts: 3 }),
        ],
      },
      { expect: [page('miss', P2, fromUpstream())] },
    ],
  },
  {
    name: 'an upstream failure once the stale copy is too old: the mapped problem',
    upstream: [upstreamPage(P1), serverError],
    steps: [
      { expect: [page('miss', P1, fromUpstream())] },
      {
        advanceMs: FRESH_MS + STALE_MS,
        expect: [
          problem(502, 'upstream_error', { cache: 'miss', upstreamStatus: 500, attempts: 3 }),
        ],
      },
    ],
  },
  ...(
    [
      [{ kind: 'timeout', upstreamStatus: undefined }, problem(504, 'upstream_timeout')],
      [
        { kind: 'unreachable', upstreamStatus: undefined, reason: 'ECONNREFUSED' },
        problem(503, 'upstream_unavailable', { retryAfterSeconds: 5 }),
      ],
      [
        { kind: 'credentials_rejected', upstreamStatus: 401 },
        problem(502, 'upstream_credentials_rejected', { upstreamStatus: 401 }),
      ],
      [
        { kind: 'bad_response', upstreamStatus: 200, reason: 'the body is not JSON' },
        problem(502, 'upstream_bad_response', { upstreamStatus: 200 }),
      ],
      [
        { kind: 'rate_limited', upstreamStatus: 429, retryAfterSeconds: 42 },
        problem(429, 'upstream_rate_limited', { upstreamStatus: 429, retryAfterSeconds: 42 }),
      ],
      [
        { kind: 'quota_paused', upstreamStatus: undefined, retryAfterSeconds: 7 },
        problem(429, 'upstream_rate_limited', { retryAfterSeconds: 7 }),
      ],
    ] as const
  ).map(([failure, expected]): Case => ({
    name: `an upstream ${failure.kind} without a stale copy: the mapped problem, not kept`,
    upstream: [upstreamFailure(failure), upstreamPage(P1)],
    steps: [
      { expect: [{ ...expected, cache: 'miss', attempts: 1 }] },
      { expect: [page('miss', P1, fromUpstream())] },
    ],
  })),
  {
    name: 'an upstream 404 is remembered for a while, so repeats spend nothing',
    upstream: [notFound, upstreamPage(P1)],
    steps: [
      {
        expect: [
          problem(404, 'playlist_not_found', { cache: 'miss', upstreamStatus: 404, attempts: 1 }),
        ],
      },
      {
        advanceMs: REFUSAL_MS - 1,
        clients: ['a', 'b'],
        expect: [
          problem(404, 'playlist_not_found', { cache: 'hit', upstreamStatus: 404 }),
          problem(404, 'playlist_not_found', { cache: 'hit', upstreamStatus: 404 }),
        ],
      },
      { advanceMs: 1, expect: [page('miss', P1, fromUpstream())] },
    ],
  },
  {
    name: 'an upstream 400 is remembered with its own code and wording',
    upstream: [
      upstreamFailure({
        kind: 'bad_request',
        upstreamStatus: 400,
        code: 'invalid_continuation',
        detail: 'This continuation was not made here.',
      }),
    ],
    steps: [
      {
        lookup: second,
        expect: [
          problem(400, 'invalid_continuation', {
            detail: 'This continuation was not made here.',
            cache: 'miss',
            upstreamStatus: 400,
            attempts: 1,
          }),
        ],
      },
      {
        lookup: second,
        expect: [
          problem(400, 'invalid_continuation', {
            detail: 'This continuation was not made here.',
            cache: 'hit',
            upstreamStatus: 400,
          }),
        ],
      },
    ],
  },
  {
    name: 'a refusal replaces a stale page: the upstream said the page is gone',
    upstream: [upstreamPage(P1), notFound],
    steps: [
      { expect: [page('miss', P1, fromUpstream())] },
      {
        advanceMs: FRESH_MS,
        expect: [
          problem(404, 'playlist_not_found', { cache: 'miss', upstreamStatus: 404, attempts: 1 }),
        ],
      },
      { expect: [problem(404, 'playlist_not_found', { cache: 'hit', upstreamStatus: 404 })] },
    ],
  },
];

function makeSource(script: UpstreamResult[], burst = 100, secondLevel?: SecondLevel) {
  let clock = 1_000_000_000;
  const now = () => clock;
  const upstream = scriptedUpstreamClient(script);
  const { pageSource: source, cache } = buildPageSource({
    upstream,
    cacheMaxBytes: 1_000_000,
    clientRateLimit: createClientRateLimit({ burst, perSecond: 0.001, now }),
    freshMs: { playlist: FRESH_MS },
    staleMs: STALE_MS,
    refusalMs: REFUSAL_MS,
    now,
    secondLevel,
  });
  const advance = (ms: number) => (clock += ms);
  return { source, upstream, cache, advance };
}

describe('page source', () => {
  // A loop rather than it.each, whose titles would cut the names short.
  for (const { name, upstream: script, burst, steps } of cases) {
    it(name, async () => {
      const { source, upstream, advance } = makeSource(script, burst);
      for (const [index, step] of steps.entries()) {
        advance(step.advanceMs ?? 0);
        const clients = step.clients ?? ['a'];
        const answers = await Promise.all(
          clients.map((client) => source.get(step.lookup ?? first, client)),
        );
        expect(answers.map(summary), `step ${index + 1}`).toEqual(step.expect);
      }
      // Every scripted answer was asked for, and nothing more.
      expect(upstream.calls).toHaveLength(script.length);
    });
  }

  it('compresses a page once per coding and counts the copy in the cache', async () => {
    const body = JSON.stringify({ items: Array.from({ length: 50 }, (_, i) => `item ${i}`) });
    const { source, cache } = makeSource([upstreamPage(body)]);
    const answer = await source.get(first, 'a');
    if (answer.kind !== 'page') throw new Error('expected a page');
    const before = cache.stats().bytes;
    const [one, two] = await Promise.all([
      source.encode(first, answer.page, 'br'),
      source.encode(first, answer.page, 'br'),
    ]);
    expect(one).toBe(two);
    expect(brotliDecompressSync(one).toString()).toBe(body);
    await new Promise((resolve) => setImmediate(resolve));
    expect(answer.page.encodedBytes).toBe(one.length);
    expect(cache.stats().bytes).toBe(before + KEPT_COPY_BYTES + one.length);
  });

  describe('a page another replica claimed and never answers (it died asking)', () => {
    /** The second level as such a replica left it: the claim held, waits running out. */
    function claimedElsewhere() {
      const seen = { claims: 0, waits: 0, releases: 0, stores: 0 };
      const secondLevel: SecondLevel = {
        ...NO_SECOND_LEVEL,
        read: () => ({ fetching: true }),
        claim: () => (seen.claims++, false),
        waitFor: () => (seen.waits++, Promise.resolve({ fetching: false })),
        release: () => void seen.releases++,
        store: () => void seen.stores++,
      };
      return { secondLevel, seen };
    }

    it('a reader waits for its result before fetching the page itself', async () => {
      const { secondLevel, seen } = claimedElsewhere();
      const { source } = makeSource([upstreamPage(P1)], 100, secondLevel);
      // Merged, as a wait for another's fetch is, though that came to nothing.
      expect(summary(await source.get(first, 'a'))).toEqual(page('merged', P1, fromUpstream()));
      expect(seen).toEqual({ claims: 1, waits: 2, releases: 0, stores: 1 });
    });

    it('a job fetches at once, claiming nothing and keeping nothing: nobody else could be given its page', async () => {
      const { secondLevel, seen } = claimedElsewhere();
      const { source, cache } = makeSource([upstreamPage(P1)], 100, secondLevel);
      expect(summary(await source.get(first, 'a', { keep: false }))).toEqual(
        page('miss', P1, fromUpstream()),
      );
      expect(seen).toEqual({ claims: 0, waits: 0, releases: 0, stores: 0 });
      expect(cache.stats().entries).toBe(0);
    });

    it('a job whose fetch fails leaves the other replica’s claim where it is', async () => {
      const { secondLevel, seen } = claimedElsewhere();
      const { source } = makeSource([serverError], 100, secondLevel);
      const answer = await source.get(first, 'a', { keep: false });
      expect(answer).toMatchObject({ kind: 'problem', upstreamStatus: 500 });
      expect(seen).toEqual({ claims: 0, waits: 0, releases: 0, stores: 0 });
    });
  });
});
