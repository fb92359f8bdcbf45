import { useQuery } from '@tanstack/react-query';
import type { WalkCost, WalkProgress } from '../../../shared/whole-list.ts';
import { Button } from '../../components/ui/button.tsx';
import { formatCount, plural } from '../../lib/format.ts';
import { failureSentence, formatWait, tryAgainIn } from '../../lib/problem-text.ts';
import { walkCostOptions } from '../api/whole-list-queries.ts';
import type { Walk } from '../hooks/use-walk.ts';
import type { WholeListProps } from '../panel-props.ts';
import { CARD, NOTE, QUIET, SUBHEADING } from './panel-styles.ts';

// "Load all": what it costs first (upstream lookups, the hour's quota left), then a progress
// bar that can be cancelled. What has loaded stays in the list.

function CostLine({ cost }: { cost: WalkCost }) {
  const { quota } = cost;
  const spend =
    cost.lookups === null
      ? `A channel does not say how long it is: each page not yet read costs one lookup${cost.cachedPages > 0 ? ` (${plural(cost.cachedPages, 'page is', 'pages are')} cached)` : ''}.`
      : cost.lookups === 0
        ? `Every page is in the server’s cache: loading costs no lookups.`
        : `${plural(cost.pages ?? 0, 'page', 'pages')}: ${plural(cost.lookups, 'lookup', 'lookups')} to the catalogue${cost.cachedPages > 0 ? `, ${formatCount(cost.cachedPages)} cached` : ''}.`;
  return (
    <div className="space-y-1">
      <p className={NOTE}>{spend}</p>
      <p className={QUIET}>
        {`Quota this hour: ${formatCount(quota.remaining)} of ${formatCount(quota.budgetPerHour)} lookups left`}
        {quota.pausedForSeconds > 0
          ? ` · paused for ${formatWait(quota.pausedForSeconds)} (the catalogue asked)`
          : ''}
        {cost.share
          ? ` · your share: ${formatCount(cost.share.remaining)} of ${formatCount(cost.share.perClient)}`
          : ''}
        .
      </p>
      {!cost.affordable && (
        <p className="text-sm font-medium text-amber-800 dark:text-amber-300">
          {`${cost.limitedBy === 'share' ? 'Not enough of your share of the hour left' : 'Not enough quota left this hour'} for the whole list${cost.retryAfter ? `: try again in ${formatWait(cost.retryAfter)}` : ''}.`}
        </p>
      )}
    </div>
  );
}

function ProgressBar({
  progress,
  totalPages,
}: {
  progress: WalkProgress | null;
  totalPages: number | null;
}) {
  const total = progress?.totalItems ?? null;
  const percent =
    progress && total
      ? Math.min(100, Math.round((progress.items / Math.max(1, total)) * 100))
      : null;
  const text = progress
    ? [
        `${formatCount(progress.pages)}${totalPages ? ` of ${formatCount(totalPages)}` : ''} pages`,
        `${formatCount(progress.items)}${total !== null ? ` of ${formatCount(total)}` : ''} items`,
        ...(percent !== null ? [`${percent}%`] : []),
      ].join(' · ')
    : 'Starting…';
  return (
    <div className="flex min-w-0 flex-1 flex-col gap-1">
      <progress
        aria-label="Loading the whole list"
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

function outcomeText(walk: Walk, count: number): string | null {
  if (walk.state.phase !== 'ended') return null;
  const { outcome } = walk.state;
  const loaded = `${plural(count, 'item is', 'items are')} loaded and stay in the list`;
  switch (outcome.kind) {
    case 'complete':
      return null;
    case 'cancelled':
      return `Cancelled: ${loaded}.`;
    case 'stopped':
      return `The server stopped before the end${outcome.stoppedBy ? `: ${outcome.stoppedBy.detail}` : ''}${outcome.stoppedBy?.retryAfter ? ` ${tryAgainIn(outcome.stoppedBy.retryAfter)}` : '.'} ${loaded}.`;
    case 'cut':
      return `The connection was cut before the end: ${loaded}.`;
    case 'failed':
      return `${failureSentence(outcome.error)} ${count > 0 ? `${loaded}.` : ''}`.trim();
  }
}

export function LoadAll({ list, id, complete, items, walk }: WholeListProps & { walk: Walk }) {
  const running = walk.state.phase === 'running';
  const cost = useQuery({ ...walkCostOptions(list, id), enabled: !complete && !running });
  const outcome = outcomeText(walk, items.length);
  return (
    <div className={CARD}>
      <h3 className={SUBHEADING}>Load all</h3>
      {complete ? (
        <p className={`${NOTE} mt-1`} role="status">
          {`All ${plural(items.length, 'item is', 'items are')} loaded: find, sort and the charts cover every one.`}
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
                Cancel
              </Button>
            </div>
          ) : (
            <>
              {cost.isPending ? (
                <p className={QUIET} role="status">
                  Checking what loading everything costs…
                </p>
              ) : cost.isError ? (
                <p className={NOTE}>{`What it costs is unknown: ${failureSentence(cost.error)}`}</p>
              ) : (
                <CostLine cost={cost.data} />
              )}
              {outcome && (
                <p role="status" className={NOTE}>
                  {outcome}
                </p>
              )}
              <Button size="sm" onClick={walk.start} disabled={cost.data?.affordable === false}>
                {items.length > 0 && walk.state.phase === 'ended' ? 'Load the rest' : 'Load all'}
              </Button>
            </>
          )}
        </div>
      )}
    </div>
  );
}
