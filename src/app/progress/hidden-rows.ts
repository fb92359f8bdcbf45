// "Hide watched": the list's rows with the marked items left out. Rows stay a fixed height in a
// virtual list, so hiding is a map between rows and positions rather than rows drawn at zero
// height: row r shows the r-th position not marked, and a position (a deep link's, a jump's) is
// scrolled to through the row that shows it, or the next one when it is hidden itself.

export interface RowMap {
  /** Rows shown. */
  count: number;
  /** The list position (0-based) row `row` shows. */
  positionAt(row: number): number;
  /** The row showing `position`, or the row after where it would be when it is hidden. */
  rowOf(position: number): number;
}

/** The rows of a list `length` long without the items `marks` names (1-based, ascending). */
export function withoutMarked(length: number, marks: readonly number[]): RowMap {
  const hidden = marks.filter((mark) => mark >= 1 && mark <= length);
  /** Marks at or before the 1-based index `index`. */
  const hiddenThrough = (index: number) => {
    let low = 0;
    let high = hidden.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (hidden[middle]! <= index) low = middle + 1;
      else high = middle;
    }
    return low;
  };
  return {
    count: length - hidden.length,
    positionAt(row) {
      // Each mark at or before the candidate pushes it one further.
      let position = row;
      for (const mark of hidden) {
        if (mark <= position + 1) position++;
        else break;
      }
      return position;
    },
    rowOf(position) {
      return position - hiddenThrough(position);
    },
  };
}
