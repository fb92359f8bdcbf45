import { describe, expect, it } from 'vitest';
import type { ListWalk, WalkedPage, WalkEnd } from './list-walk.ts';
import { createSpool, createSpoolRoom, readWalk, readWithinMs } from './walk-spool.ts';

// Reading a walk before answering (walk-spool.ts), over walks made up here: to the chain's end
// with the walk still open, an early end, a bound, a page that never comes; and the spool's
// limits, per export and for the whole process.

interface FakeWalk extends ListWalk {
  releases: number;
  asked: number;
}

type Step = { items: number; continuation: string | null } | 'hang' | WalkEnd;

/** A walk that answers `steps` in turn: a page, a page that never comes, or an early end. */
function fakeWalk(steps: Step[], hung: Promise<never> = new Promise(() => {})): FakeWalk {
  let at = 0;
  let items = 0;
  let pages = 0;
  const walk: FakeWalk = {
    list: 'channel-videos',
    id: 'UCx',
    releases: 0,
    asked: 0,
    pay() {},
    progress: () => ({ pages, items, totalItems: null }),
    release() {
      walk.releases++;
    },
    async next() {
      walk.asked++;
      const step = steps[at++];
      if (step === undefined) throw new Error('asked past the end');
      if (step === 'hang') return hung;
      if ('complete' in step) return { done: true, end: step };
      const value = {
        param: null,
        body: Buffer.from(''),
        page: {
          items: Array.from({ length: step.items }, (_, i) => ({ id: `v${items + i}` })),
          continuation: step.continuation,
        },
        firstPosition: items + 1,
      } as unknown as WalkedPage;
      items += step.items;
      pages++;
      return { done: false, value };
    },
  };
  return walk;
}

const page = (items: number, continuation: string | null = 'next') => ({ items, continuation });

describe('reading a walk before answering', () => {
  it('reads to the chain’s end and leaves the walk open, asking nothing past its last page', async () => {
    const walk = fakeWalk([page(30), page(30), page(5, null)]);
    const seen: number[] = [];
    const read = await readWalk(walk, (walked) => void seen.push(walked.firstPosition), 1_000);
    expect(read).toEqual({ kind: 'end', end: { complete: true, stoppedBy: null } });
    expect(seen).toEqual([1, 31, 61]);
    expect(walk.asked).toBe(3);
    // The caller sends what was read under it, then releases it.
    expect(walk.releases).toBe(0);
  });

  it('an empty continuation ends the chain as null does', async () => {
    const walk = fakeWalk([page(0, '')]);
    expect(await readWalk(walk, () => undefined, 1_000)).toMatchObject({
      kind: 'end',
      end: { complete: true },
    });
  });

  it('a walk that ends before the list does says why (it released itself)', async () => {
    const stoppedBy = {
      status: 429,
      code: 'quota_exhausted',
      detail: 'The window is spent.',
      retryAfter: 60,
    };
    const walk = fakeWalk([page(30), { complete: false, stoppedBy }]);
    expect(await readWalk(walk, () => undefined, 1_000)).toEqual({
      kind: 'end',
      end: { complete: false, stoppedBy },
    });
  });

  it('stops, and releases the walk, when a page is one too many', async () => {
    const walk = fakeWalk([page(30), page(30), page(30), page(30, null)]);
    const read = await readWalk(
      walk,
      (walked) => (walked.firstPosition > 30 ? 'pages' : undefined),
      1_000,
    );
    expect(read).toEqual({ kind: 'stopped', reason: 'pages' });
    expect(walk.asked).toBe(2);
    expect(walk.releases).toBe(1);
  });

  it('does not wait past its time for a page that does not come, nor hear of its failure', async () => {
    let fail: (error: Error) => void = () => {};
    const hung = new Promise<never>((_, reject) => (fail = reject));
    const walk = fakeWalk([page(30), 'hang'], hung);
    const read = await readWalk(walk, () => undefined, 20);
    expect(read).toEqual({ kind: 'late' });
    expect(walk.releases).toBe(1);
    // The page's failure after the answer is nobody's: no unhandled rejection.
    fail(new Error('the upstream failed later'));
    await new Promise((resolve) => setImmediate(resolve));
  });

  it('a failing walk is released and its error thrown', async () => {
    const walk = fakeWalk([page(30)]);
    walk.next = () => Promise.reject(new Error('broken'));
    await expect(readWalk(walk, () => undefined, 1_000)).rejects.toThrow('broken');
    expect(walk.releases).toBe(1);
  });

  it('may take two thirds of the idle timeout, and a second at least', () => {
    expect(readWithinMs(30_000)).toBe(20_000);
    expect(readWithinMs(100)).toBe(1_000);
  });
});

describe('the spool', () => {
  const limits = { maxPages: 3, maxBytes: 10, totalBytes: 15 };
  const bytes = (spool: ReturnType<typeof createSpool>) => {
    const chunks: string[] = [];
    for (let chunk = spool.take(); chunk !== undefined; chunk = spool.take())
      chunks.push(new TextDecoder().decode(chunk));
    return chunks.join('');
  };

  it('holds the file as UTF-8 and hands it over once', () => {
    const room = createSpoolRoom(limits.totalBytes);
    const spool = createSpool(limits, room);
    expect(spool.add('a,', 0)).toBeUndefined();
    expect(spool.add('', 1)).toBeUndefined();
    expect(spool.add('é', 1)).toBeUndefined();
    expect(spool.bytes).toBe(4);
    expect(room.held).toBe(4);
    expect(bytes(spool)).toBe('a,é');
    expect(room.held).toBe(0);
    expect(spool.take()).toBeUndefined();
  });

  it('says which bound a page would pass: its pages, its bytes, the process’s room', () => {
    const room = createSpoolRoom(limits.totalBytes);
    const one = createSpool(limits, room);
    expect(one.add('x', 4)).toBe('pages');
    expect(one.add('12345678901', 1)).toBe('bytes');
    expect(one.add('1234567890', 1)).toBeUndefined();
    const two = createSpool(limits, room);
    expect(two.add('123456', 1)).toBe('room');
    expect(two.add('12345', 1)).toBeUndefined();
    expect(room.held).toBe(15);
    // What one gives back, the other may take.
    one.drop();
    one.drop();
    expect(room.held).toBe(5);
    expect(two.add('12345', 2)).toBeUndefined();
    two.drop();
    expect(room.held).toBe(0);
  });
});
