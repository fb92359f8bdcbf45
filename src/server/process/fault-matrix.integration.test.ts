import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EndpointName } from '../../shared/endpoints.ts';
import type { ProblemCode } from '../../shared/problem.ts';
import { realPageSource } from '../../test-support/real-page-source.ts';
import {
  destroy,
  hang,
  json,
  startTestUpstream,
  type Behaviour,
  type TestUpstream,
} from '../../test-support/test-upstream.ts';
import type { Lookup } from '../upstream/lookup.ts';

// Every upstream fault × every endpoint × a first and a later page, over real HTTP: what the
// reader gets (the mapped problem, docs/catalogue-api.md §2.2), that a repeat inside the
// back-off costs no upstream call, that a stale copy stands in when there is one, and that the
// page comes back once the upstream heals.

interface Fault {
  name: string;
  behaviour: Behaviour;
  status: number;
  code: ProblemCode;
}

const FAULTS: Fault[] = [
  { name: '500', behaviour: json(500, {}), status: 502, code: 'upstream_error' },
  { name: '502', behaviour: json(502, {}), status: 502, code: 'upstream_error' },
  { name: '503', behaviour: json(503, {}), status: 502, code: 'upstream_error' },
  { name: '504', behaviour: json(504, {}), status: 502, code: 'upstream_error' },
  {
    name: '429 with Retry-After',
    behaviour: json(429, {}, { 'Retry-After': '2' }),
    status: 429,
    code: 'upstream_rate_limited',
  },
  { name: 'hang', behaviour: hang, status: 504, code: 'upstream_timeout' },
  { name: 'connection reset', behaviour: destroy, status: 503, code: 'upstream_unavailable' },
  {
    name: 'malformed JSON',
    behaviour: (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{"items": [');
    },
    status: 502,
    code: 'upstream_bad_response',
  },
  {
    name: 'schema mismatch',
    behaviour: json(200, { items: 'not a list', continuation: null }),
    status: 502,
    code: 'upstream_bad_response',
  },
  {
    name: '401',
    behaviour: json(401, { title: 'Unauthorized' }),
    status: 502,
    code: 'upstream_credentials_rejected',
  },
];

const LOOKUPS: Array<[string, Lookup]> = (
  [
    ['playlist', 'PLfaultMatrix000000001'],
    ['channel-videos', 'UCfaultMatrix000000000001'],
    ['channel-playlists', 'UCfaultMatrix000000000002'],
  ] as Array<[EndpointName, string]>
).flatMap(([endpoint, id]): Array<[string, Lookup]> => [
  [`${endpoint}, first page`, { endpoint, id, continuation: undefined }],
  [`${endpoint}, later page`, { endpoint, id, continuation: 'later+/=page' }],
]);

const CASES = FAULTS.flatMap((fault) =>
  LOOKUPS.map(([where, lookup]) => ({ name: `${fault.name} × ${where}`, fault, lookup })),
);

let upstream: TestUpstream;
beforeAll(async () => {
  upstream = await startTestUpstream();
});
afterAll(async () => {
  await upstream.close();
});

describe('the fault matrix', () => {
  it.each(CASES)('$name', async ({ fault, lookup }) => {
    upstream.reset();
    let clock = Date.now();
    const { pageSource, close } = realPageSource(upstream.url, {
      backoff: true,
      retries: 0,
      deadlineMs: 300,
      staleAfterMs: 150,
      now: () => clock,
    });
    try {
      // No copy: the mapped problem, and a repeat that costs nothing.
      upstream.setFallback(fault.behaviour);
      const first = await pageSource.get(lookup, 'a');
      expect(first.kind === 'problem' && [first.status, first.code]).toEqual([
        fault.status,
        fault.code,
      ]);
      const calls = upstream.hits();
      expect(calls).toBe(1);
      const repeat = await pageSource.get(lookup, 'b');
      expect(repeat.kind === 'problem' && [repeat.status, repeat.code]).toEqual([
        fault.status,
        fault.code,
      ]);
      expect(repeat.kind === 'problem' && repeat.retryAfterSeconds).toBeGreaterThanOrEqual(1);
      expect(upstream.hits()).toBe(calls);

      // Healed, past the back-off (and any pause the upstream asked for): the page comes.
      upstream.reset();
      clock += 60_000;
      const healed = await pageSource.get(lookup, 'a');
      expect(healed.kind === 'page' && healed.cache).toBe('miss');

      // With a copy past its freshness, the same fault leaves the reader the copy.
      clock += 11 * 60_000;
      upstream.setFallback(fault.behaviour);
      const stale = await pageSource.get(lookup, 'c');
      expect(stale.kind === 'page' && stale.cache).toBe('stale');
    } finally {
      await close();
    }
  });
});
