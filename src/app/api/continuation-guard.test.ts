import { describe, expect, it } from 'vitest';
import { continuationRepeats, nextContinuation } from './continuation-guard.ts';

describe('nextContinuation', () => {
  it('follows new continuations and stops at null', () => {
    expect(nextContinuation('c2', [null])).toBe('c2');
    expect(nextContinuation('c3', [null, 'c2'])).toBe('c3');
    expect(nextContinuation(null, [null, 'c2'])).toBeUndefined();
  });

  it('stops instead of looping when a continuation repeats', () => {
    expect(nextContinuation('c2', [null, 'c2'])).toBeUndefined();
    expect(continuationRepeats('c2', [null, 'c2'])).toBe(true);
    expect(continuationRepeats('c3', [null, 'c2'])).toBe(false);
    expect(continuationRepeats(null, [null])).toBe(false);
  });
});
