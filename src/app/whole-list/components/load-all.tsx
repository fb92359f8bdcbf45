import { useQuery } from '@tanstack/react-query';
import type { WalkCost, WalkProgress } from '../../../shared/whole-list.ts';
import { Button } from '../../components/ui/button.tsx';
import { useTranslation, type Translation } from '../../i18n/use-translation.ts';
import { failureSentence, problemSentence } from '../../lib/problem-text.ts';
import { walkCostOptions } from '../api/whole-list-queries.ts';
import type { Walk } from '../hooks/use-walk.ts';
import type { WholeListProps } from '../panel-props.ts';
import { CARD, NOTE, QUIET, SUBHEADING } from './panel-styles.ts';

// "Load all": what it costs first (upstream lookups, the window's quota left), then a progress
// bar that can be cancelled. What has loaded stays in the list. The quota's window is the
// server's (CATALOGUE_QUOTA_WINDOW: an hour, a day, seconds in tests), said as a duration in the
// reader's words.

function spendText(cost: WalkCost, t: Translation['t']): string {
  if (cost.lookups === null) {
    return cost.cachedPages > 0
      ? t('wholeList.cost.unknownLengthCached', { cached: cost.cachedPages })
      : t('wholeList.cost.unknownLength');
  }
  if (cost.lookups === 0) return t('wholeList.cost.free');
  const values = { pages: cost.pages ?? 0, lookups: cost.lookups, cached: cost.cachedPages };
  return cost.cachedPages > 0
    ? t('wholeList.cost.lookupsCached', values)
    : t('wholeList.cost.lookups', values);
}

function shortText(cost: WalkCost, { t, formatWait, describeDuration }: Translation): string {
  const share = cost.limitedBy === 'share';
  const window = describeDuration(cost.quota.windowSeconds);
  if (!cost.retryAfter) {
    return t(share ? 'wholeList.cost.shareShort' : 'wholeList.cost.quotaShort', { window });
  }
  const wait = formatWait(cost.retryAfter);
  return t(share ? 'wholeList.cost.shareShortRetry' : 'wholeList.cost.quotaShortRetry', {
    window,
    wait,
  });
}

function CostLine({ cost }: { cost: WalkCost }) {
  const translation = useTranslation();
  const { t, formatWait, describeDuration } = translation;
  const { quota } = cost;
  return (
    <div className="space-y-1">
      <p className={NOTE}>{spendText(cost, t)}</p>
      <p className={QUIET}>
        {t('wholeList.cost.quota', {
          remaining: quota.remaining,
          budget: quota.budgetPerHour,
          window: describeDuration(quota.windowSeconds),
          paused: quota.pausedForSeconds > 0 ? 'yes' : 'no',
          wait: quota.pausedForSeconds > 0 ? formatWait(quota.pausedForSeconds) : '',
          share: cost.share ? 'yes' : 'no',
          shareRemaining: cost.share?.remaining ?? 0,
          sharePerClient: cost.share?.perClient ?? 0,
        })}
      </p>
      {!cost.affordable && (
        <p className="text-sm font-medium text-amber-800 dark:text-amber-300">
          {shortText(cost, translation)}
        </p>
      )}
    </div>
  );
}

function progressText(
  progress: WalkProgress,
  totalPages: number | null,
  percent: number | null,
  t: Translation['t'],
): string {
  const values = {
    pages: progress.pages,
    totalPages,
    items: progress.items,
    totalItems: progress.totalItems,
    // The message formats a fraction as the locale writes percentages.
    fraction: (percent ?? 0) / 100,
  };
  if (progress.totalItems === null) {
    return totalPages
      ? t('wholeList.loadAll.progress.pagesOfTotal', values)
      : t('wholeList.loadAll.progress.counts', values);
  }
  return totalPages
    ? t('wholeList.loadAll.progress.bothOfTotal', values)
    : t('wholeList.loadAll.progress.itemsOfTotal', values);
}

function ProgressBar({
  progress,
  totalPages,
}: {
  progress: WalkProgress | null;
  totalPages: number | null;
}) {
  const { t } = useTranslation();
  const total = progress?.totalItems ?? null;
  const percent =
    progress && total !== null
      ? Math.min(100, Math.round((progress.items / Math.max(1, total)) * 100))
      : null;
  const text = progress
    ? progressText(progress, totalPages, percent, t)
    : t('wholeList.loadAll.starting');
  return (
    <div className="flex min-w-0 flex-1 flex-col gap-1">
      <progress
        aria-label={t('wholeList.loadAll.progressLabel')}
        aria-valuetext={text}
        className="h-2 w-full overflow-hidden rounded-full [&::-webkit-progress-bar]:bg-zinc-200 [&::-webkit-progress-value]:bg-blue-600 dark:[&::-webkit-progress-bar]:bg-zinc-700 dark:[&::-webkit-progress-value]:bg-blue-400"
        max={100}
        {...(percent !== null ? { value: percent } : {})}
      />
      <span className={`${QUIET} tabular-nums`} data-testid="walk-progress">
        {text}
      </span>
    </div>
  );
}

/**
 * How a walk that did not reach the end ended, and what of the list it left: whole sentences,
 * each a message of its own (the reason is problem-text.ts's sentence for the server's code).
 */
function outcomeText(walk: Walk, count: number, translation: Translation): string | null {
  if (walk.state.phase !== 'ended') return null;
  const { t } = translation;
  const { outcome } = walk.state;
  const kept = t('wholeList.walk.kept', { count });
  switch (outcome.kind) {
    case 'complete':
      return null;
    case 'cancelled':
      return t('wholeList.walk.cancelled', { count });
    case 'stopped':
      return [
        t('wholeList.walk.stopped'),
        ...(outcome.stoppedBy ? [problemSentence(outcome.stoppedBy, translation)] : []),
        kept,
      ].join(' ');
    case 'cut':
      return t('wholeList.walk.cut', { count });
    case 'failed': {
      const failure = failureSentence(outcome.error, translation);
      return count > 0 ? `${failure} ${kept}` : failure;
    }
  }
}

export function LoadAll({ list, id, complete, items, walk }: WholeListProps & { walk: Walk }) {
  const translation = useTranslation();
  const { t } = translation;
  const running = walk.state.phase === 'running';
  const cost = useQuery({ ...walkCostOptions(list, id), enabled: !complete && !running });
  const outcome = outcomeText(walk, items.length, translation);
  return (
    <div className={CARD}>
      <h3 className={SUBHEADING}>{t('wholeList.loadAll.heading')}</h3>
      {complete ? (
        <p className={`${NOTE} mt-1`} role="status">
          {t('wholeList.loadAll.allLoaded', { count: items.length })}
        </p>
      ) : (
        <div className="mt-1 space-y-2">
          {running ? (
            <div className="flex items-center gap-3">
              <ProgressBar
                progress={walk.state.phase === 'running' ? walk.state.progress : null}
                totalPages={cost.data?.pages ?? null}
              />
              <Button variant="secondary" size="sm" onClick={walk.cancel}>
                {t('wholeList.loadAll.cancel')}
              </Button>
            </div>
          ) : (
            <>
              {cost.isPending ? (
                <p className={QUIET} role="status">
                  {t('wholeList.loadAll.checkingCost')}
                </p>
              ) : cost.isError ? (
                <p className={NOTE}>
                  {t('wholeList.loadAll.costUnknown', {
                    reason: failureSentence(cost.error, translation),
                  })}
                </p>
              ) : (
                <CostLine cost={cost.data} />
              )}
              {outcome && (
                <p role="status" className={NOTE}>
                  {outcome}
                </p>
              )}
              <Button size="sm" onClick={walk.start} disabled={cost.data?.affordable === false}>
                {items.length > 0 && walk.state.phase === 'ended'
                  ? t('wholeList.loadAll.rest')
                  : t('wholeList.loadAll.start')}
              </Button>
            </>
          )}
        </div>
      )}
    </div>
  );
}
