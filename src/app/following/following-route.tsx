import { useCallback, useEffect, useRef } from 'react';
import { Button } from '../components/ui/button.tsx';
import { useHydrated } from '../hooks/use-hydrated.ts';
import { useTranslation, type Translation } from '../i18n/use-translation.ts';
import { FollowFilesPanel } from './follow-files-panel.tsx';
import { follows, keyOf, useFollowState } from './follow-store.ts';
import { FollowingList } from './following-list.tsx';
import { seenOf } from './list-updates.ts';
import { StoreNotice } from './store-notice.tsx';
import {
  useFollowingRefresh,
  type Estimate,
  type Phase,
  type Progress,
} from './use-following-refresh.ts';

// `/following`: what is new in every list the reader follows, grouped by list, each in its own
// order (use-following-refresh.ts reads them, list-card.tsx shows one). New items since the
// last visit are marked; the visit counts as seen when the reader leaves the page or marks it
// so. The store's own troubles come first (store-notice.tsx), import and export last.

export function FollowingRoute() {
  const translation = useTranslation();
  const { t } = translation;
  const hydrated = useHydrated();
  const followState = useFollowState();
  const { lists } = followState;
  const refresh = useFollowingRefresh(lists, hydrated);
  const { results } = refresh;

  const markAllSeen = useCallback(() => {
    const marks = [];
    for (const list of follows.get()) {
      const result = results.get(keyOf(list));
      if (result?.state === 'done')
        marks.push({ list, seen: seenOf(result.entries), title: result.update.title });
    }
    follows.markSeen(marks);
  }, [results]);

  // What was shown counts as seen once the reader leaves.
  const leave = useRef(markAllSeen);
  useEffect(() => {
    leave.current = markAllSeen;
  });
  useEffect(() => {
    const onHide = () => leave.current();
    window.addEventListener('pagehide', onHide);
    return () => {
      window.removeEventListener('pagehide', onHide);
      onHide();
    };
  }, []);

  return (
    <div className="py-6">
      <title>{t('title.withSite', { title: t('following.title') })}</title>
      <h1 className="text-2xl font-bold text-zinc-900 dark:text-zinc-50">
        {t('following.heading')}
      </h1>
      {hydrated && <StoreNotice state={followState} />}
      {!hydrated ? (
        <p role="status" className="mt-4 text-zinc-600 dark:text-zinc-400">
          {t('app.loading')}
        </p>
      ) : lists.length === 0 ? (
        <p className="mt-4 text-zinc-700 dark:text-zinc-300">{t('following.empty')}</p>
      ) : (
        <>
          <div className="mt-3 flex flex-wrap items-center gap-3">
            <Button size="sm" onClick={refresh.refreshAll}>
              {t('following.refresh')}
            </Button>
            <Button size="sm" variant="secondary" onClick={markAllSeen}>
              {t('following.markSeen')}
            </Button>
            <RefreshStatus
              phase={refresh.phase}
              progress={refresh.progress}
              paused={refresh.paused}
              translation={translation}
            />
          </div>
          {refresh.phase.kind === 'asking' && (
            <AskFirst
              estimate={refresh.phase.estimate}
              onConfirm={refresh.confirm}
              translation={translation}
            />
          )}
          {refresh.phase.kind === 'refused' && (
            <p
              role="alert"
              className="mt-3 rounded-md border border-red-300 bg-red-50 p-3 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
            >
              {t('following.keyRefused')}
            </p>
          )}
          <p className="mt-2 text-xs text-zinc-600 dark:text-zinc-400">{t('following.order')}</p>
          <FollowingList
            lists={lists}
            results={results}
            waiting={refresh.phase.kind === 'asking' ? refresh.phase.lists : null}
            label={t('following.heading')}
          />
        </>
      )}
      {hydrated && <FollowFilesPanel lists={lists} />}
    </div>
  );
}

/** What a refresh will cost and take, said before it spends anything. */
function costSentence(estimate: Estimate, { t, formatWait }: Translation): string {
  const { min, max } = estimate.lookups;
  const cost =
    min === max
      ? t('following.estimate.exact', { lists: estimate.lists, max })
      : t('following.estimate', { lists: estimate.lists, min, max });
  const { seconds } = estimate;
  if (seconds.max === 0) return cost;
  const wait =
    seconds.min === 0
      ? t('following.estimate.waitUpTo', { wait: formatWait(seconds.max) })
      : formatWait(seconds.min) === formatWait(seconds.max)
        ? t('following.estimate.wait', { wait: formatWait(seconds.max) })
        : t('following.estimate.waitRange', {
            least: formatWait(seconds.min),
            most: formatWait(seconds.max),
          });
  return `${cost} ${wait}`;
}

function AskFirst({
  estimate,
  onConfirm,
  translation,
}: {
  estimate: Estimate;
  onConfirm: () => void;
  translation: Translation;
}) {
  const { t } = translation;
  return (
    <div className="mt-3 flex flex-wrap items-center gap-3 rounded-md border border-zinc-300 p-3 text-sm dark:border-zinc-700">
      <p className="text-zinc-800 dark:text-zinc-200">{costSentence(estimate, translation)}</p>
      <Button size="sm" onClick={onConfirm}>
        {t('following.estimate.go', { lists: estimate.lists })}
      </Button>
    </div>
  );
}

function RefreshStatus({
  phase,
  progress,
  paused,
  translation,
}: {
  phase: Phase;
  progress: Progress | null;
  paused: { seconds: number; why: 'server' | 'backoff' } | null;
  translation: Translation;
}) {
  const { t, formatWait } = translation;
  let text: string | null = null;
  if (phase.kind === 'estimating') text = t('following.estimating');
  else if (phase.kind === 'running' && progress !== null) {
    const parts = [
      t('following.progress', { done: progress.done, total: progress.total }),
      t('following.spent', { lookups: progress.lookups }),
    ];
    if (phase.estimate && phase.estimate.lookups.max > 0 && progress.done === 0)
      parts.push(costSentence(phase.estimate, translation));
    if (paused !== null)
      parts.push(
        t(paused.why === 'server' ? 'following.paused' : 'following.retrying', {
          wait: formatWait(paused.seconds),
        }),
      );
    if (progress.secondsLeft !== null && progress.secondsLeft > 0 && progress.done < progress.total)
      parts.push(t('following.timeLeft', { wait: formatWait(progress.secondsLeft) }));
    text = parts.join(' · ');
  } else if (phase.kind === 'idle' && progress !== null && progress.total > 0)
    text = t('following.finished', { lists: progress.total, lookups: progress.lookups });
  // The phase and counts as data too, for tests and benches that wait on them in any language.
  return (
    <p
      role="status"
      aria-live="polite"
      data-phase={phase.kind}
      data-done={progress?.done ?? 0}
      data-total={progress?.total ?? 0}
      className="text-sm text-zinc-700 dark:text-zinc-300"
    >
      {text}
    </p>
  );
}
