import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_IDS } from '../../catalogue/demo-fixtures.ts';
import { feedCostsPath, feedCostsSchema, type FeedCosts } from '../../shared/feed-costs.ts';
import { updatesPath } from '../../shared/feeds.ts';
import {
  startExplorerFixture,
  type ExplorerFixture,
  type ServedExplorer,
} from '../../test-support/explorer-fixture.ts';

// What a refresh of followed lists would cost, told before it spends, and then what it did
// cost, over real sockets with the upstream's calls counted: the estimate's range holds what
// the refresh spent, for cold and warm lists, channels and playlists of every length.

let fixture: ExplorerFixture;
let explorer: ServedExplorer;

beforeAll(async () => {
  fixture = await startExplorerFixture();
  explorer = await fixture.serve({
    CLIENT_RATE_LIMIT_BURST: '60',
    CLIENT_RATE_LIMIT_PER_SECOND: '2',
  });
});
afterEach(() => fixture.reset());
afterAll(() => fixture.close());

type Named = { kind: 'playlist' | 'channel'; id: string };

async function costs(lists: Named[]): Promise<FeedCosts> {
  const response = await explorer.get(feedCostsPath(lists));
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  return feedCostsSchema.parse(await response.json());
}

/** Refreshes the lists as the view does; the lookups each line says it cost, by list. */
async function refresh(lists: Named[]): Promise<Map<string, number>> {
  const text = await (await explorer.get(updatesPath(lists))).text();
  const spent = new Map<string, number>();
  for (const line of text.trim().split('\n')) {
    const parsed = JSON.parse(line) as { list: string; lookups?: number };
    spent.set(parsed.list, parsed.lookups ?? 0);
  }
  return spent;
}

describe('the cost of a refresh, before it spends', () => {
  it('is exact for channels, cold and warm, and spends nothing to say so', async () => {
    const lists: Named[] = [
      { kind: 'channel', id: FIXTURE_IDS.bigChannel },
      { kind: 'channel', id: FIXTURE_IDS.smallChannel },
    ];
    const before = await costs(lists);
    expect(fixture.upstream.hits()).toBe(0);
    expect(before.lists.map((l) => l.lookups)).toEqual([
      { min: 1, max: 1 },
      { min: 1, max: 1 },
    ]);
    expect(before.allowance).toEqual({ burst: 60, perSecond: 2 });
    const spent = await refresh(lists);
    expect([...spent.values()]).toEqual([1, 1]);
    expect(fixture.upstream.hits()).toBe(2);
    const after = await costs(lists);
    expect(after.lists.map((l) => l.lookups)).toEqual([
      { min: 0, max: 0 },
      { min: 0, max: 0 },
    ]);
  });

  it('for a playlist never read: from one lookup to a full playlist’s walk, then what is cached', async () => {
    const list: Named = { kind: 'playlist', id: FIXTURE_IDS.playlist5000 };
    const [cold] = (await costs([list])).lists;
    expect(cold!.lookups).toEqual({ min: 1, max: 50 });
    // Its first page read (as a view would): the length is known, the walk exact.
    await explorer.get(`/api/v1/playlist?id=${FIXTURE_IDS.playlist5000}`);
    const [known] = (await costs([list])).lists;
    expect(known!.lookups).toEqual({ min: 49, max: 49 });
    const hits = fixture.upstream.hits();
    const spent = await refresh([list]);
    expect(spent.get(`playlist:${FIXTURE_IDS.playlist5000}`)).toBe(49);
    expect(fixture.upstream.hits() - hits).toBe(49);
    // Its end kept, and every page fresh: nothing now, a page or two once it changes.
    const [kept] = (await costs([list])).lists;
    expect(kept!.lookups).toEqual({ min: 0, max: 2 });
  });

  it('says what the window has left for everyone and for this client', async () => {
    const answer = await costs([{ kind: 'channel', id: FIXTURE_IDS.smallChannel }]);
    expect(answer.window.seconds).toBe(3600);
    expect(answer.window.remaining).toBeGreaterThan(0);
    expect(answer.window.clientShare?.remaining).toBeGreaterThan(0);
    expect(answer.window.clientShare?.perWindow).toBeGreaterThanOrEqual(
      answer.window.clientShare!.remaining,
    );
    expect(answer.window.pausedForSeconds).toBe(0);
  });

  it('refuses a malformed list with a problem, as the updates do', async () => {
    for (const query of [
      '',
      '?lists=',
      '?lists=playlist:x',
      `?lists=${'channel:UC1,'.repeat(101)}`,
    ]) {
      const response = await explorer.get(`/feeds/updates/cost${query}`);
      expect(response.status, query).toBe(400);
      expect(response.headers.get('content-type')).toContain('application/problem+json');
    }
  });
});
