import { setImmediate as nextLoop } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createClientTurns } from './client-turns.ts';

describe('client turns', () => {
  it('a client’s first request of a turn starts at once', () => {
    const turns = createClientTurns();
    const started: string[] = [];
    turns.take('a', () => started.push('a1'));
    turns.take('b', () => started.push('b1'));
    expect(started).toEqual(['a1', 'b1']);
    expect(turns.waiting()).toBe(0);
  });

  it('one request per client per turn: a flooder’s many cannot keep another’s one waiting', async () => {
    const turns = createClientTurns();
    const started: string[] = [];
    // A flooder's sixteen requests arrive together, then another client's one.
    for (let n = 1; n <= 16; n++) turns.take('flooder', () => started.push(`f${n}`));
    turns.take('reader', () => started.push('r1'));
    expect(started).toEqual(['f1', 'r1']);
    expect(turns.waiting()).toBe(15);
    await nextLoop();
    expect(started).toEqual(['f1', 'r1', 'f2']);
    // The reader's next request, in a later turn, again starts at once, before the flooder's.
    turns.take('reader', () => started.push('r2'));
    expect(started.at(-1)).toBe('r2');
    for (let turn = 0; turn < 20; turn++) await nextLoop();
    expect(started.filter((s) => s.startsWith('f'))).toHaveLength(16);
    expect(turns.waiting()).toBe(0);
  });

  it('waiting clients take turns in the order they began to wait', async () => {
    const turns = createClientTurns();
    const started: string[] = [];
    for (const request of ['a1', 'a2', 'a3', 'b1', 'b2', 'c1', 'c2'])
      turns.take(request[0]!, () => started.push(request));
    expect(started).toEqual(['a1', 'b1', 'c1']);
    await nextLoop();
    expect(started).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'c2']);
    await nextLoop();
    expect(started).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'c2', 'a3']);
  });

  it('a start that throws does not cost the other clients their turn', async () => {
    const turns = createClientTurns();
    const started: string[] = [];
    turns.take('a', () => started.push('a1'));
    turns.take('a', () => {
      throw new Error('boom');
    });
    turns.take('b', () => started.push('b1'));
    turns.take('b', () => started.push('b2'));
    await nextLoop();
    expect(started).toEqual(['a1', 'b1', 'b2']);
  });
});
