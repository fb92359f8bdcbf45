import { describe, expect, it } from 'vitest';
import { mergeChain, ndjsonLines } from './walk-stream.ts';

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
