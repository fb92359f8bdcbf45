import { useEffect, useId, useMemo, useState } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { Select } from '../../components/ui/text-field.tsx';
import { useTranslation } from '../../i18n/use-translation.ts';
import { usePanelAddress } from '../hooks/use-panel-address.ts';
import type { Walk } from '../hooks/use-walk.ts';
import { SORT_CHOICES, SORT_PENDING, sortChoice, sortOrder, sortValue } from '../lib/list-sort.ts';
import type { SortKey } from '../lib/panel-params.ts';
import type { WholeListProps } from '../panel-props.ts';
import { CARD, NOTE, SUBHEADING } from './panel-styles.ts';

// The order the view draws the list in. Sorting needs every item, so until the whole list is in
// a chosen order waits (and says so), with Load all at hand.

export function SortPicker({ list, items, complete, host, walk }: WholeListProps & { walk: Walk }) {
  const { t } = useTranslation();
  const address = usePanelAddress();
  const [key, setKey] = useState<SortKey>(() => {
    const wanted = address.params.sort;
    return sortChoice(list, wanted) ? wanted : 'given';
  });
  const selectId = useId();
  const order = useMemo(
    () => (complete ? sortOrder(items.length, key, (p, k) => sortValue(list, items[p]!, k)) : null),
    [complete, items, key, list],
  );
  const { setOrder } = host;
  useEffect(() => {
    setOrder(order);
  }, [order, setOrder]);
  const choose = (next: SortKey) => {
    setKey(next);
    address.write({ sort: next });
  };
  const pending = !complete && key !== 'given' ? SORT_PENDING[key] : null;
  return (
    <div className={CARD}>
      <label htmlFor={selectId} className={SUBHEADING}>
        {t('wholeList.sort.label')}
      </label>
      <div className="mt-2 flex flex-wrap items-center gap-2">
        <Select
          id={selectId}
          value={key}
          onChange={(event) => choose(event.target.value as SortKey)}
          disabled={!complete && key === 'given'}
        >
          {SORT_CHOICES[list].map((choice) => (
            <option key={choice.key} value={choice.key}>
              {t(choice.label)}
            </option>
          ))}
        </Select>
        {!complete && walk.state.phase !== 'running' && (
          <Button size="sm" onClick={walk.start}>
            {t('wholeList.sort.loadAll')}
          </Button>
        )}
      </div>
      {!complete && (
        <p className={`${NOTE} mt-2`}>
          {pending ? t(pending) : t('wholeList.sort.needsWholeList')}
        </p>
      )}
    </div>
  );
}
