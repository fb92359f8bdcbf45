import { describe, expect, it } from 'vitest';
import { barSlots } from './bar-layout.ts';

describe('bar layout', () => {
  const size = { width: 100, gap: 4 };

  it('lays bars from the left, a gap between and at each end', () => {
    const { bar, slots } = barSlots(3, { ...size, direction: 'ltr' });
    expect(bar).toBe(28);
    expect(slots.map((s) => s.x)).toEqual([4, 36, 68]);
    expect(slots[0]!.middle).toBe(18);
  });

  it('mirrors them right to left: the first bin at the right', () => {
    const ltr = barSlots(3, { ...size, direction: 'ltr' }).slots;
    const rtl = barSlots(3, { ...size, direction: 'rtl' }).slots;
    expect(rtl.map((s) => s.x)).toEqual([68, 36, 4]);
    for (const [i, slot] of rtl.entries()) expect(slot.middle).toBe(100 - ltr[i]!.middle);
  });
});
