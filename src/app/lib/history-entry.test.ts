import { describe, expect, it } from 'vitest';
import { entryKey, entryKeyOfHistoryState } from './history-entry.ts';

describe('history entry identity', () => {
  it('is the location key until an in-place rewrite carries it on', () => {
    expect(entryKey({ key: 'a1', state: null })).toBe('a1');
    expect(entryKey({ key: 'b2', state: { entry: 'a1' } })).toBe('a1');
    expect(entryKey({ key: 'b2', state: { entry: 7 } })).toBe('b2');
  });

  it('reads the same from history.state as the router stores it', () => {
    expect(entryKeyOfHistoryState({ usr: null, key: 'a1', idx: 0 })).toBe('a1');
    expect(entryKeyOfHistoryState({ usr: { entry: 'a1' }, key: 'b2', idx: 0 })).toBe('a1');
    expect(entryKeyOfHistoryState(null)).toBe('default');
    expect(entryKeyOfHistoryState({ idx: 0 })).toBe('default');
  });
});
