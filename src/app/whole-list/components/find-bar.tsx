import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { Button } from '../../components/ui/button.tsx';
import { TextInput } from '../../components/ui/text-field.tsx';
import { useTranslation } from '../../i18n/use-translation.ts';
import { usePanelAddress } from '../hooks/use-panel-address.ts';
import {
  buildHaystack,
  findMatches,
  normalizeQuery,
  stepMatch,
  type Findable,
} from '../lib/list-find.ts';
import { inverseOrder } from '../lib/list-sort.ts';
import type { WholeListProps } from '../panel-props.ts';
import { QUIET } from './panel-styles.ts';

// Find as you type, in a bar that stays at the top of the window over the list: the match
// count, next and previous (Enter, Shift+Enter), each match shown at its place in the list and
// marked. Every item's text is lowercased once (list-find.ts), so even a long list's search is
// cheap: it runs in the keystroke's own render rather than a deferred one, which would cost every
// key a second render and paint. Only this bar renders per keystroke, not the list.

/** How long typing must pause before the query is written to the address. */
const ADDRESS_DELAY_MS = 400;

/** The find bar's height: a jump from elsewhere in the panel keeps its row clear of the bar. */
export function findBarHeight(): number {
  return document.querySelector<HTMLElement>('[data-find-bar]')?.offsetHeight ?? 0;
}

export function FindBar({ list, items, complete, totalItems, host }: WholeListProps) {
  const { t } = useTranslation();
  const address = usePanelAddress();
  const [query, setQuery] = useState(address.params.q);
  const haystack = useMemo(
    () => buildHaystack(items as ReadonlyArray<Findable | undefined>),
    [items],
  );
  // The items searched: a long list's pages let go (page-trim.ts) are not among them.
  const held = useMemo(() => items.reduce((n, item) => n + (item ? 1 : 0), 0), [items]);
  const { order } = host;
  const matches = useMemo(() => {
    const found = findMatches(haystack, query);
    if (order === null || found.length === 0) return found;
    // In the order shown: next goes down the list as the reader sees it.
    const inverse = inverseOrder(order);
    return found.sort((a, b) => inverse[a]! - inverse[b]!);
  }, [haystack, query, order]);
  const [current, setCurrent] = useState<{ matches: Int32Array; at: number }>({
    matches,
    at: -1,
  });
  const at = current.matches === matches ? current.at : -1;
  const bar = useRef<HTMLDivElement>(null);

  // The query goes into the address (?q=) once typing pauses: writing the address costs the
  // browser a few milliseconds each time, too much to pay on every key.
  const { write } = address;
  useEffect(() => {
    const timer = setTimeout(
      () => write({ q: normalizeQuery(query) === '' ? '' : query.trim() }),
      ADDRESS_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [query, write]);

  const go = (step: 1 | -1) => {
    const next = stepMatch(at, matches.length, step);
    if (next < 0) return;
    setCurrent({ matches, at: next });
    host.jump(matches[next]!, (bar.current?.offsetHeight ?? 0) + 4);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      go(event.shiftKey ? -1 : 1);
    }
  };

  const searching = normalizeQuery(query) !== '';
  const count = searching
    ? matches.length === 0
      ? t('wholeList.find.noMatches')
      : at >= 0
        ? t('wholeList.find.matchPosition', { current: at + 1, count: matches.length })
        : t('wholeList.find.matchCount', { count: matches.length })
    : '';
  const partial =
    complete || held === 0
      ? null
      : totalItems
        ? t('wholeList.find.partialOfTotal', { loaded: held, total: totalItems })
        : t('wholeList.find.partial', { loaded: held });
  const withChannels = list === 'playlist';
  return (
    <div
      ref={bar}
      data-find-bar
      className="sticky top-0 z-10 -mx-3 mb-2 contain-content border-b border-zinc-200 bg-white px-3 py-2 sm:-mx-6 sm:px-6 dark:border-zinc-800 dark:bg-zinc-950"
    >
      <div role="search" className="flex items-center gap-2">
        <TextInput
          type="search"
          aria-label={t(
            withChannels ? 'wholeList.find.titlesAndChannels.label' : 'wholeList.find.titles.label',
          )}
          placeholder={t(
            withChannels
              ? 'wholeList.find.titlesAndChannels.placeholder'
              : 'wholeList.find.titles.placeholder',
          )}
          value={query}
          onChange={(event) => setQuery(event.target.value)}
          onKeyDown={onKeyDown}
          className="w-0 min-w-0 flex-1"
          autoComplete="off"
          spellCheck={false}
        />
        <div className="flex shrink-0 items-center gap-1.5 sm:gap-2">
          <span
            role="status"
            className={`${QUIET} min-w-12 text-end tabular-nums sm:min-w-20`}
            data-testid="find-count"
          >
            {count}
          </span>
          <Button
            variant="secondary"
            size="sm"
            onClick={() => go(-1)}
            disabled={matches.length === 0}
            aria-label={t('wholeList.find.previous')}
          >
            <span aria-hidden="true">↑</span>
          </Button>
          <Button
            variant="secondary"
            size="sm"
            onClick={() => go(1)}
            disabled={matches.length === 0}
            aria-label={t('wholeList.find.next')}
          >
            <span aria-hidden="true">↓</span>
          </Button>
        </div>
      </div>
      {searching && partial && <p className={`${QUIET} mt-1`}>{partial}</p>}
    </div>
  );
}
