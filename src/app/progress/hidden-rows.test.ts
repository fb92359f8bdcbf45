import { describe, expect, it } from 'vitest';
import { withoutMarked } from './hidden-rows.ts';

describe('withoutMarked', () => {
  it('leaves the marked items out, in order', () => {
    const rows = withoutMarked(10, [2, 3, 7]);
    expect(rows.count).toBe(7);
    const shown = Array.from({ length: rows.count }, (_, row) => rows.positionAt(row) + 1);
    expect(shown).toEqual([1, 4, 5, 6, 8, 9, 10]);
  });

  it('finds the row of every shown position, and the next row for a hidden one', () => {
    const rows = withoutMarked(10, [2, 3, 7]);
    for (let row = 0; row < rows.count; row++) expect(rows.rowOf(rows.positionAt(row))).toBe(row);
    // Item 7 (position 6) is hidden: its place is item 8's row.
    expect(rows.positionAt(rows.rowOf(6))).toBe(7);
  });

  it('ignores marks past the list’s end, and is the list itself with none', () => {
    const rows = withoutMarked(5, [9]);
    expect(rows.count).toBe(5);
    expect(rows.positionAt(4)).toBe(4);
    expect(withoutMarked(3, []).rowOf(2)).toBe(2);
  });
});
