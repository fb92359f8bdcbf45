import { afterAll, beforeAll, expect, it } from 'vitest';
import { FIXTURE_IDS } from '../../catalogue/demo-fixtures.ts';
import { endpoints } from '../../shared/endpoints.ts';
import {
  startExplorerFixture,
  type ExplorerFixture,
  type ServedExplorer,
} from '../../test-support/explorer-fixture.ts';
import { json } from '../../test-support/test-upstream.ts';

// A key revoked after the explorer had seen it accepted, met by a refresh of a hundred followed
// lists at once, as start-explorer.ts composes the guards (slots, breaker, back-off): the calls
// already out when the first refusal arrives are all it costs, every answer's Retry-After says
// when the next call will be let go, and the refresh after that costs the one probe.

const OPEN_MS = 3_000;
const IN_FLIGHT = 32;
const LISTS = 100;
/**
 * Retry-After is whole seconds, rounded up, so it says up to a second more than the wait left;
 * an answer also takes a moment to reach the test on a loaded machine.
 */
const TRAVEL_MS = 250;

let fixture: ExplorerFixture;
let explorer: ServedExplorer;

beforeAll(async () => {
  fixture = await startExplorerFixture();
  explorer = await fixture.serve({
    BREAKER_OPEN_MS: String(OPEN_MS),
    UPSTREAM_MAX_IN_FLIGHT: String(IN_FLIGHT),
    // One reader's browser, whose allowance is not what is being measured.
    CLIENT_RATE_LIMIT_BURST: '100000',
    CLIENT_SHARE_OF_WINDOW: '1',
    // No warming beside the reader: its calls are not the refresh's.
    CHAIN_WARM_SHARE: '0',
  });
});
afterAll(() => fixture.close());

const listId = (n: number) => `PLrevokedKeyFollowedList${String(n).padStart(10, '0')}`;
const page = (id: string) => `${endpoints.playlist.path}?${new URLSearchParams({ id })}`;

/** A refresh of every followed list at once: each answer's status, code and when to ask again. */
async function refresh() {
  return Promise.all(
    Array.from({ length: LISTS }, async (_, n) => {
      const response = await explorer.get(page(listId(n)));
      // When the answer came: its Retry-After counts from here.
      const at = Date.now();
      const body = (await response.json()) as { code?: string };
      const retryAfter = response.headers.get('retry-after');
      return {
        status: response.status,
        code: body.code,
        nextCallAt: retryAfter === null ? null : at + Number(retryAfter) * 1000,
      };
    }),
  );
}

it('a key revoked after it was accepted costs the calls in flight, then one probe a refresh', async () => {
  // Accepted: the explorer sends calls side by side, with no trial of the key.
  expect((await explorer.get(page(FIXTURE_IDS.playlist5000))).status).toBe(200);

  // Revoked: every lookup is refused. The refusals wait until every slot's call has arrived,
  // so that the calls in flight when the first refusal reaches the explorer are known however
  // slowly a loaded machine sends them: all the slots' worth, and no more after it.
  const before = fixture.upstream.hits();
  const refuse = json(401, { title: 'Unauthorized', status: 401, code: 'unauthorized' });
  const waiting: Array<() => void> = [];
  let firstRefusalAt = 0;
  const answerAll = () => {
    firstRefusalAt ||= Date.now();
    for (const answer of waiting.splice(0)) answer();
  };
  const meanwhile = setTimeout(answerAll, 10_000);
  fixture.upstream.setFallback((req, res) => {
    waiting.push(() => refuse(req, res));
    if (firstRefusalAt !== 0 || waiting.length >= IN_FLIGHT) answerAll();
  });
  const answers = await refresh();
  clearTimeout(meanwhile);
  const spent = fixture.upstream.hits() - before;
  // None after the first refusal: the calls waiting for a slot then were held back.
  expect(spent).toBe(IN_FLIGHT);
  for (const answer of answers) {
    expect([answer.status, answer.code]).toEqual([502, 'upstream_credentials_rejected']);
    expect(answer.nextCallAt).not.toBeNull();
  }
  // Each says when the breaker lets the next call go: a window after the first refusal.
  const letGo = firstRefusalAt + OPEN_MS;
  const offsets = answers.map((answer) => answer.nextCallAt! - letGo);
  console.info(
    `revoked key: ${LISTS} lists cost ${spent} lookups (${IN_FLIGHT} slots); Retry-After from ${Math.min(...offsets)} to ${Math.max(...offsets)} ms of when the next call may go`,
  );
  for (const answer of answers)
    expect(Math.abs(answer.nextCallAt! - letGo)).toBeLessThanOrEqual(1_000 + TRAVEL_MS);

  // Asked again when told: the probe goes, is refused, and the rest are turned away.
  const latest = Math.max(...answers.map((answer) => answer.nextCallAt!));
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, latest - Date.now())));
  const probeBefore = fixture.upstream.hits();
  const again = await refresh();
  expect(fixture.upstream.hits() - probeBefore).toBe(1);
  for (const answer of again)
    expect([answer.status, answer.code]).toEqual([502, 'upstream_credentials_rejected']);
});
