import { QueryClient } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { pagesOptions } from '../../api/catalogue-queries.ts';
import { ndjsonLines } from '../../api/ndjson.ts';
import { loadAll, mergeChain } from './walk-stream.ts';

function streamOf(...chunks: string[]): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      controller.close();
    },
  });
}

async function lines(stream: ReadableStream<Uint8Array>): Promise<string[]> {
  const out: string[] = [];
  for await (const line of ndjsonLines(stream)) out.push(line);
  return out;
}

describe('ndjsonLines', () => {
  it('splits lines across chunks, skips blank ones, keeps a last line without a newline', async () => {
    expect(await lines(streamOf('{"a":', '1}\n\n{"b"', ':2}\n{"c":3}'))).toEqual([
      '{"a":1}',
      '{"b":2}',
      '{"c":3}',
    ]);
  });

  it('decodes characters split between chunks', async () => {
    const bytes = new TextEncoder().encode('"🎧"\n');
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes.slice(0, 2));
        controller.enqueue(bytes.slice(2));
        controller.close();
      },
    });
    expect(await lines(stream)).toEqual(['"🎧"']);
  });
});

describe('mergeChain', () => {
  const chain = (...params: (string | null)[]) => ({
    pages: params.map((p) => `page ${p}`),
    pageParams: params,
  });

  it('appends the walk’s pages past the cache’s end, keeping the cached ones', () => {
    const cached = chain(null, 'a');
    const merged = mergeChain(cached, chain(null, 'a', 'b', 'c'));
    expect(merged?.pageParams).toEqual([null, 'a', 'b', 'c']);
    expect(merged?.pages[0]).toBe(cached.pages[0]);
  });

  it('changes nothing when the cache holds every page the walk read', () => {
    expect(mergeChain(chain(null, 'a', 'b'), chain(null, 'a'))).toBeNull();
  });

  it('takes the walk’s pages from where the two chains part', () => {
    const merged = mergeChain(chain(null, 'a', 'x', 'y'), chain(null, 'a', 'b'));
    expect(merged?.pageParams).toEqual([null, 'a', 'b']);
  });

  it('fills an empty cache', () => {
    expect(mergeChain(chain(), chain(null, 'a'))?.pageParams).toEqual([null, 'a']);
  });
});

describe('loadAll', () => {
  const ID = 'PLcatalogueDemoPlaylist0101items00';
  const item = (index: number) => ({
    index,
    id: `video${String(index).padStart(6, '0')}`,
    title: `Video ${index}`,
    thumbnails: [],
    channelId: 'UCcatalogueDemoChannel01',
    channelTitle: 'Channel',
    viewsText: '1 view',
    publishedText: '',
    duration: 60,
  });
  const page = (first: number, continuation: string | null) => ({
    items: [item(first), item(first + 1)],
    continuation,
  });
  const cost = {
    list: 'playlist',
    id: ID,
    totalItems: 6,
    pages: 3,
    cachedPages: 1,
    lookups: 2,
    quota: { budgetPerHour: 100, windowSeconds: 3600, remaining: 90, pausedForSeconds: 0 },
    affordable: true,
  };
  const progress = (pages: number) => ({ pages, items: pages * 2, totalItems: 6 });
  const events = [
    { type: 'start', cost },
    { type: 'page', param: null, page: page(1, 'c2'), progress: progress(1) },
    { type: 'page', param: 'c2', page: page(3, 'c3'), progress: progress(2) },
    { type: 'page', param: 'c3', page: page(5, null), progress: progress(3) },
    { type: 'end', complete: true, stoppedBy: null, progress: progress(3) },
  ];
  const ndjson = (list: unknown[]) => list.map((e) => JSON.stringify(e)).join('\n') + '\n';
  const answer = (body: string, init: ResponseInit = {}) =>
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(body, { headers: { 'Content-Type': 'application/x-ndjson' }, ...init }),
      ),
    );
  const seeded = () => {
    const client = new QueryClient();
    client.setQueryData(pagesOptions('playlist', ID).queryKey, {
      pages: [page(1, 'c2')],
      pageParams: [null],
    });
    return client;
  };
  afterEach(() => void vi.unstubAllGlobals());

  it('writes the walk’s pages after the cached ones, in chain order', async () => {
    answer(ndjson(events));
    const client = seeded();
    const cached = client.getQueryData(pagesOptions('playlist', ID).queryKey)!.pages[0];
    const seen: number[] = [];
    const outcome = await loadAll(client, 'playlist', ID, {
      signal: new AbortController().signal,
      onProgress: (p) => seen.push(p.pages),
      commitEveryMs: 0,
    });
    expect(outcome).toEqual({ kind: 'complete', progress: progress(3) });
    const data = client.getQueryData(pagesOptions('playlist', ID).queryKey)!;
    expect(data.pageParams).toEqual([null, 'c2', 'c3']);
    expect(data.pages.flatMap((p) => p.items.map((i) => i.index))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(data.pages[0]).toBe(cached);
    expect(seen.at(-1)).toBe(3);
  });

  it('keeps what arrived when the stream is cut before its end', async () => {
    answer(ndjson(events.slice(0, 3)));
    const client = seeded();
    const outcome = await loadAll(client, 'playlist', ID, { signal: new AbortController().signal });
    expect(outcome.kind).toBe('cut');
    expect(client.getQueryData(pagesOptions('playlist', ID).queryKey)!.pageParams).toEqual([
      null,
      'c2',
    ]);
  });

  it('says why the server stopped, and refuses an unreadable page', async () => {
    const stop = { code: 'quota_exhausted', detail: 'The hour’s quota is spent.', retryAfter: 60 };
    answer(
      ndjson([
        ...events.slice(0, 2),
        { type: 'end', complete: false, stoppedBy: stop, progress: progress(1) },
      ]),
    );
    const stopped = await loadAll(seeded(), 'playlist', ID, {
      signal: new AbortController().signal,
    });
    expect(stopped).toMatchObject({ kind: 'stopped', stoppedBy: stop });

    answer(ndjson([events[0], { ...events[2], page: { items: 'no' } }]));
    const failed = await loadAll(seeded(), 'playlist', ID, {
      signal: new AbortController().signal,
    });
    expect(failed.kind).toBe('failed');
  });

  it('reports a refusal before the walk starts with its problem and Retry-After', async () => {
    answer(
      JSON.stringify({
        type: 'about:blank',
        title: 'Too many requests',
        status: 429,
        code: 'rate_limited',
        detail: 'Two walks are running already.',
      }),
      { status: 429, headers: { 'Content-Type': 'application/problem+json', 'Retry-After': '30' } },
    );
    const outcome = await loadAll(seeded(), 'playlist', ID, {
      signal: new AbortController().signal,
    });
    expect(outcome.kind).toBe('failed');
    const error = (outcome as { error: { status: number; retryAfter: number } }).error;
    expect(error.status).toBe(429);
    expect(error.retryAfter).toBe(30);
  });

  it('is cancelled by its signal', async () => {
    answer(ndjson(events));
    const controller = new AbortController();
    controller.abort();
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new DOMException('aborted', 'AbortError'))),
    );
    const outcome = await loadAll(seeded(), 'playlist', ID, { signal: controller.signal });
    expect(outcome.kind).toBe('cancelled');
  });
});
