import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestRedis, type TestRedis } from '../../test-support/redis-server.ts';
import { startReplicas, type Replica } from '../../test-support/replicas.ts';
import {
  pagesFrom,
  playlistInfo,
  playlistItem,
  startTestUpstream,
  type TestUpstream,
} from '../../test-support/test-upstream.ts';

// Whole-list walks over three replicas sharing one Redis: a client's walks are counted for the
// whole deployment, and two readers of one list on different replicas cost the upstream one
// walk.

const PAGES = 10;
let redis: TestRedis;
let upstream: TestUpstream;
let replicas: Replica[];

/** A playlist of PAGES pages, each answered after 120 ms. */
const longPlaylist = pagesFrom((url) => {
  const id = url.searchParams.get('id') ?? '';
  const at = Number((url.searchParams.get('continuation') ?? 'c1').slice(1));
  return {
    ...(at === 1 ? { info: { ...playlistInfo(id), totalItems: PAGES * 100 } } : {}),
    items: [playlistItem(at)],
    continuation: at < PAGES ? `c${at + 1}` : null,
  };
});

beforeAll(async () => {
  [redis, upstream] = await Promise.all([
    startTestRedis(),
    startTestUpstream(async (req, res) => {
      await sleep(120);
      await longPlaylist(req, res);
    }),
  ]);
  replicas = await startReplicas(3, {
    CATALOGUE_BASE_URL: upstream.url,
    REDIS_URL: redis.url,
    EXPLORER_REPLICAS: '3',
    TRUST_PROXY: 'true',
    CLIENT_RATE_LIMIT_BURST: '100000',
    // The deployment's hour is under test, not one client's share of it (kept per replica).
    CLIENT_SHARE_OF_WINDOW: '1',
    // What the replicas share is under test, not a slow Redis: a command deadline that a loaded
    // machine meets, so that no replica counts walks alone for want of a CPU.
    REDIS_COMMAND_TIMEOUT_MS: '2000',
  });
}, 30_000);

afterAll(async () => {
  await Promise.all((replicas ?? []).map((r) => r.kill()));
  await Promise.all([redis.stop(), upstream.close()]);
});

/** Clients are told apart by the address the trusted proxy forwards: documentation addresses. */
const WALKER = '192.0.2.10';

const walk = (replica: Replica, list: string, client: string) =>
  fetch(`${replica.url}/api/walk/playlist/${list}`, { headers: { 'X-Forwarded-For': client } });

describe('whole-list walks across replicas', () => {
  it("a client's two walks on one replica stop a third on another; when one ends, the other replica takes it", async () => {
    const [a, b] = replicas as [Replica, Replica];
    const first = await walk(a, 'PLwalkone0123456789', WALKER);
    const second = await walk(a, 'PLwalktwo0123456789', WALKER);
    expect([first.status, second.status]).toEqual([200, 200]);
    const third = await walk(b, 'PLwalkthree0123456789', WALKER);
    expect(third.status).toBe(429);
    expect(((await third.json()) as { code: string }).code).toBe('too_many_walks');
    // Someone else is not affected.
    const other = await walk(b, 'PLwalkthree0123456789', '192.0.2.11');
    expect(other.status).toBe(200);
    await other.body?.cancel();
    // The first walk is read to its end: its place is free again, on every replica.
    await first.text();
    const again = await walk(b, 'PLwalkthree0123456789', WALKER);
    expect(again.status).toBe(200);
    await Promise.all([second.body?.cancel(), again.body?.cancel()]);
  });

  it('two readers of one list on two replicas: the upstream sees one walk', async () => {
    const [, b, c] = replicas as [Replica, Replica, Replica];
    await sleep(300); // the cancelled walks above stop asking
    const before = upstream.hits();
    const [one, two] = await Promise.all([
      walk(b, 'PLwalkshared0123456789', '192.0.2.21').then((r) => r.text()),
      walk(c, 'PLwalkshared0123456789', '192.0.2.22').then((r) => r.text()),
    ]);
    const pages = (text: string) => text.split('\n').filter((l) => l.includes('"type":"page"'));
    expect(pages(one)).toHaveLength(PAGES);
    expect(pages(two)).toHaveLength(PAGES);
    const calls = upstream.requests
      .slice(before)
      .filter((r) => r.url.includes('PLwalkshared0123456789'));
    expect(calls).toHaveLength(PAGES);
  });
});
