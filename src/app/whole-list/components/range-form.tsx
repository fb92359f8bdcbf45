import { useId, useState, type FormEvent } from 'react';
import { BUTTON, BUTTON_QUIET, INPUT, QUIET } from './panel-styles.ts';

// The range a total covers, asked for as two item numbers; checked here, so that the server is
// asked only for a range that can be read.

/** Items `from` to `to` (1-based, both ends in); either end open when undefined. */
export interface Range {
  from: number | undefined;
  to: number | undefined;
}

export function RangeForm({
  range,
  max,
  onApply,
}: {
  range: Range;
  max: number | null;
  onApply: (range: Range) => void;
}) {
  const [from, setFrom] = useState(range.from?.toString() ?? '');
  const [to, setTo] = useState(range.to?.toString() ?? '');
  const [error, setError] = useState<string | null>(null);
  const errorId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const a = from.trim() === '' ? undefined : Number(from);
    const b = to.trim() === '' ? undefined : Number(to);
    const bad = (n: number | undefined) => n !== undefined && (!Number.isInteger(n) || n < 1);
    if (bad(a) || bad(b)) return setError('Items are numbered from 1.');
    if (a !== undefined && b !== undefined && a > b) return setError('“From” comes after “to”.');
    setError(null);
    onApply({ from: a, to: b });
  };
  const clear = () => {
    setFrom('');
    setTo('');
    setError(null);
    onApply({ from: undefined, to: undefined });
  };
  const inputProps = {
    type: 'number',
    inputMode: 'numeric' as const,
    min: 1,
    max: max ?? undefined,
    className: `${INPUT} w-24`,
    'aria-invalid': error !== null,
    'aria-describedby': error !== null ? errorId : undefined,
  };
  return (
    <form onSubmit={submit} className="mt-3 flex flex-wrap items-end gap-2" aria-label="Range">
      <label className={`${QUIET} flex flex-col gap-1`}>
        From item
        <input {...inputProps} value={from} onChange={(e) => setFrom(e.target.value)} />
      </label>
      <label className={`${QUIET} flex flex-col gap-1`}>
        To item
        <input {...inputProps} value={to} onChange={(e) => setTo(e.target.value)} />
      </label>
      <button type="submit" className={BUTTON}>
        Total of range
      </button>
      {(range.from !== undefined || range.to !== undefined) && (
        <button type="button" onClick={clear} className={BUTTON_QUIET}>
          Clear range
        </button>
      )}
      {error && (
        <p id={errorId} role="alert" className="w-full text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </form>
  );
}
