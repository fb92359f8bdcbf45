import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { readUpdatesQuery } from '../../shared/feeds.ts';
import { problem } from '../../shared/problem.ts';
import type { FollowedList } from './follow-store.ts';
import { refreshAll, type ListResult } from './list-updates.ts';

// A refresh against a real HTTP server that misbehaves as servers do: an answer cut off after
// some lists, a server that says to wait, a catalogue that refuses the server's key. What
// arrived is kept, only what is missing is asked for again, and a refused key stops it all.
// (The browser's relative URLs are resolved against the test server; nothing else is
// stood in for.)

type Behaviour = (names: string[], response: ServerResponse) => void;

let server: Server;
let origin: string;
let behave: Behaviour;
/** The lists each request named, in order. */
let asked: string[][];

beforeAll(async () => {
  server = createServer((request, response) => {
    const url = new URL(request.url!, 'http://x');
    const lists = readUpdatesQuery(url.searchParams.get('lists') ?? undefined) ?? [];
    const names = lists.map(({ list, id }) => `${list}:${id}`);
    asked.push(names);
    behave(names, response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const realFetch = globalThis.fetch;
  vi.stubGlobal('fetch', (url: string, init?: RequestInit) =>
    realFetch(new URL(url, origin), init),
  );
});
afterAll(async () => {
  vi.unstubAllGlobals();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

const lists: FollowedList[] = Array.from({ length: 10 }, (_, i) => ({
  kind: 'channel',
  id: `UCstreamCutChannel${String(i).padStart(6, '0')}`,
  title: `Channel ${i}`,
  followedAt: 0,
  seen: null,
}));

const feedLine = (name: string) =>
  `${JSON.stringify({
    list: name,
    lookups: 1,
    feed: {
      version: 'https://jsonfeed.org/version/1.1',
      title: `Feed of ${name}`,
      items: [{ id: `${name}/v`, url: 'https://www.youtube.com/watch?v=abcdefghijk', title: 'A' }],
    },
  })}\n`;

function ndjson(response: ServerResponse) {
  response.writeHead(200, { 'Content-Type': 'application/x-ndjson' });
}

/** Runs a refresh to its end, recording what each callback was told. */
async function refresh(targets = lists, firstBackoffSeconds?: number) {
  const seen: Array<{ name: string; result: ListResult }> = [];
  const pauses: Array<[number | null, string | undefined]> = [];
  const refusals: unknown[] = [];
  await refreshAll(
    targets,
    new AbortController().signal,
    {
      onList: (list, result) => seen.push({ name: `${list.kind}:${list.id}`, result }),
      onPause: (seconds, why) => pauses.push([seconds, why]),
      onRefused: (refusal) => refusals.push(refusal),
    },
    firstBackoffSeconds,
  );
  return { seen, pauses, refusals };
}

describe('a refresh', () => {
  it('keeps the 3 lists that arrived before the answer was cut, and asks again for the 7 others', async () => {
    asked = [];
    behave = (names, response) => {
      ndjson(response);
      if (asked.length === 1) {
        // Three lines, then the connection drops mid-answer.
        for (const name of names.slice(0, 3)) response.write(feedLine(name));
        setTimeout(() => response.socket?.destroy(), 20);
        return;
      }
      for (const name of names) response.write(feedLine(name));
      response.end();
    };
    const { seen, pauses } = await refresh();
    const names = lists.map((list) => `${list.kind}:${list.id}`);
    expect(asked).toEqual([names, names.slice(3)]);
    expect(seen.map((s) => s.name).sort()).toEqual([...names].sort());
    expect(seen.every((s) => 'entries' in s.result)).toBe(true);
    // One back-off between the cut and the second request.
    expect(pauses).toEqual([
      [1, 'backoff'],
      [null, undefined],
    ]);
  });

  it('gives up on a list after repeated cuts, with the error, and keeps the rest', async () => {
    asked = [];
    behave = (names, response) => {
      ndjson(response);
      // Every answer holds all lists but the last, then drops.
      for (const name of names.filter((n) => n !== names.at(-1) || names.length === 1).slice(0, -1))
        response.write(feedLine(name));
      if (names.length > 1) response.write(feedLine(names.at(-2)!));
      setTimeout(() => response.socket?.destroy(), 5);
    };
    const { seen, pauses } = await refresh(lists.slice(0, 3), 0.01);
    expect(seen.filter((s) => 'entries' in s.result)).toHaveLength(2);
    const failed = seen.filter((s) => 'error' in s.result);
    expect(failed.map((s) => s.name)).toEqual([`channel:${lists[2]!.id}`]);
    // Five tries in all, with waits that double between them.
    expect(asked).toHaveLength(5);
    expect(pauses.filter(([s]) => s !== null).map(([s]) => s)).toEqual([0.01, 0.02, 0.04, 0.08]);
  });

  it('waits as the server says for the lists it held back (429), and shows the rest at once', async () => {
    asked = [];
    behave = (names, response) => {
      ndjson(response);
      for (const [i, name] of names.entries()) {
        if (asked.length === 1 && i % 2 === 0)
          response.write(
            `${JSON.stringify({ list: name, problem: problem('rate_limited', 'Wait.', { retryAfter: 1 }) })}\n`,
          );
        else response.write(feedLine(name));
      }
      response.end();
    };
    const { seen, pauses } = await refresh(lists.slice(0, 4));
    expect(asked.map((names) => names.length)).toEqual([4, 2]);
    expect(seen).toHaveLength(4);
    expect(pauses[0]).toEqual([1, 'server']);
  });

  it('stops at the first sign of a refused catalogue key: one refusal, no more requests', async () => {
    asked = [];
    const many: FollowedList[] = Array.from({ length: 250 }, (_, i) => ({
      ...lists[0]!,
      id: `UCrefusedKeyChannel${String(i).padStart(5, '0')}`,
    }));
    behave = (names, response) => {
      ndjson(response);
      response.end(
        `${JSON.stringify({ list: names[0], problem: problem('upstream_credentials_rejected', 'Refused.') })}\n`,
      );
    };
    const { seen, refusals } = await refresh(many);
    expect(refusals).toHaveLength(1);
    expect(seen).toHaveLength(0);
    // The requests already sent beside the first (three at a time) are all that went: no
    // fourth arrives, even a while later.
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(asked.length).toBeLessThanOrEqual(3);
    asked = [];
  });

  it('stops the same way when the whole answer is the refusal', async () => {
    asked = [];
    behave = (_names, response) => {
      const body = problem('upstream_credentials_rejected', 'Refused.');
      response.writeHead(body.status, { 'Content-Type': 'application/problem+json' });
      response.end(JSON.stringify(body));
    };
    const { seen, refusals } = await refresh(lists);
    expect(refusals).toHaveLength(1);
    expect(seen).toHaveLength(0);
    expect(asked).toHaveLength(1);
  });
});
