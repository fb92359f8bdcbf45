import { afterEach, describe, expect, it } from 'vitest';
import { listScale, MAX_LIST_PX, maxListPx } from './list-scale.ts';

describe('listScale', () => {
  afterEach(() => {
    globalThis.catalogueMaxListPx = undefined;
  });

  it('draws a list that fits as it is', () => {
    const scale = listScale(500_000, 800, 1_000_000);
    expect(scale).toMatchObject({ scaled: false, height: 500_000 });
    expect(scale.toVirtual(1234)).toBe(1234);
    expect(scale.toReal(1234)).toBe(1234);
  });

  it('maps the window’s travel over the drawn list onto the whole list’s', () => {
    // 20,000 rows of 80 px through a window of 800 px, drawn at most 1,000,000 px tall.
    const full = 20_000 * 80;
    const scale = listScale(full, 800, 1_000_000);
    expect(scale).toMatchObject({ scaled: true, height: 1_000_000 });
    expect(scale.toVirtual(0)).toBe(0);
    // The bottom of the drawn list at the window's bottom is the last row's bottom there.
    expect(scale.toVirtual(1_000_000 - 800)).toBeCloseTo(full - 800, 6);
    // Halfway down the scrollbar is halfway down the list.
    expect(scale.toVirtual((1_000_000 - 800) / 2)).toBeCloseTo((full - 800) / 2, 6);
  });

  it('leaves what is above the list alone, and shifts what is below by the height left out', () => {
    const scale = listScale(1_600_000, 800, 1_000_000);
    expect(scale.toVirtual(-300)).toBe(-300);
    expect(scale.toVirtual(1_000_000 + 50)).toBeCloseTo(1_600_000 + 50, 6);
  });

  it('gives back the real offset of every virtual one', () => {
    const scale = listScale(30_000_000, 900, 8_000_000);
    for (const virtual of [-10, 0, 1, 96 * 1234, 15_000_000, 30_000_000 - 900, 30_000_100])
      expect(scale.toVirtual(scale.toReal(virtual))).toBeCloseTo(virtual, 4);
  });

  it('does not scale into a limit no taller than two windows', () => {
    expect(listScale(1_000_000, 800, 1_500).scaled).toBe(false);
  });

  it('takes a lower limit set before the app starts, never a higher one', () => {
    expect(maxListPx()).toBe(MAX_LIST_PX);
    globalThis.catalogueMaxListPx = 1_000_000;
    expect(maxListPx()).toBe(1_000_000);
    globalThis.catalogueMaxListPx = 1e12;
    expect(maxListPx()).toBe(MAX_LIST_PX);
  });
});
