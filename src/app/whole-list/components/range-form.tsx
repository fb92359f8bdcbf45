import { useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { TextInput } from '../../components/ui/text-field.tsx';
import { useTranslation } from '../../i18n/use-translation.ts';
import { QUIET } from './panel-styles.ts';

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
  const { t } = useTranslation();
  // What is wrong, not its words: a change of language while it shows says it anew.
  const [error, setError] = useState<'numbering' | 'order' | null>(null);
  const errorId = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const a = from.trim() === '' ? undefined : Number(from);
    const b = to.trim() === '' ? undefined : Number(to);
    const bad = (n: number | undefined) => n !== undefined && (!Number.isInteger(n) || n < 1);
    if (bad(a) || bad(b)) return setError('numbering');
    if (a !== undefined && b !== undefined && a > b) return setError('order');
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
    className: 'w-24',
    'aria-invalid': error !== null,
    'aria-describedby': error !== null ? errorId : undefined,
  };
  return (
    <form
      onSubmit={submit}
      className="mt-3 flex flex-wrap items-end gap-2"
      aria-label={t('wholeList.range.label')}
    >
      <label className={`${QUIET} flex flex-col gap-1`}>
        {t('wholeList.range.from')}
        <TextInput {...inputProps} value={from} onChange={(e) => setFrom(e.target.value)} />
      </label>
      <label className={`${QUIET} flex flex-col gap-1`}>
        {t('wholeList.range.to')}
        <TextInput {...inputProps} value={to} onChange={(e) => setTo(e.target.value)} />
      </label>
      <Button type="submit" size="sm">
        {t('wholeList.range.apply')}
      </Button>
      {(range.from !== undefined || range.to !== undefined) && (
        <Button variant="secondary" size="sm" onClick={clear}>
          {t('wholeList.range.clear')}
        </Button>
      )}
      {error && (
        <p id={errorId} role="alert" className="w-full text-sm text-red-700 dark:text-red-400">
          {error === 'numbering'
            ? t('wholeList.range.error.numbering', { first: 1 })
            : t('wholeList.range.error.order')}
        </p>
      )}
    </form>
  );
}
