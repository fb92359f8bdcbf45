import { Trans } from '@lingui/react';
import { useId } from 'react';
import { playlistPath } from '../../../shared/app-routes.ts';
import type { MessageId } from '../../../shared/i18n/message-id.ts';
import type { ListSummary, NotableItem } from '../../../shared/whole-list.ts';
import { TextButton, TextLink } from '../../components/ui/text-link.tsx';
import { useTranslation, type Translation } from '../../i18n/use-translation.ts';
import { formatDuration } from '../../lib/format.ts';
import { problemSentence } from '../../lib/problem-text.ts';
import { formatLongDuration, SPEEDS } from '../lib/watch-time.ts';
import type { WholeListProps } from '../panel-props.ts';
import { findBarHeight } from './find-bar.tsx';
import { NOTE, QUIET } from './panel-styles.ts';

// A summary as the total shows it: the figure, the time at faster speeds, the average and
// median, and the shortest and longest items, each a way to the item in the list. Durations
// written H:MM:SS read left to right in every language, so they are isolated from the text
// around them (`dir="ltr"`, `<bdi>`); so are the catalogue's titles, in whatever script.

function Notable({
  message,
  item,
  seconds,
  props,
}: {
  /** "<0>Shortest:</0> <1>#N</1> (<2>value</2>) {title}", or its like. */
  message: MessageId;
  item: NotableItem;
  seconds: boolean;
  props: WholeListProps;
}) {
  const { t } = useTranslation();
  const loaded = item.position <= props.items.length;
  const jump = loaded ? (
    <TextButton
      onClick={() => props.host.jump(item.position - 1, findBarHeight())}
      className="font-semibold underline-offset-2"
      aria-label={t('wholeList.summary.showPosition', { position: item.position })}
    />
  ) : props.list === 'playlist' ? (
    <TextLink
      to={playlistPath(props.id, { index: item.position })}
      className="font-semibold underline-offset-2"
    />
  ) : (
    <span />
  );
  return (
    <li className="min-w-0 truncate">
      <Trans
        id={message}
        values={{
          position: item.position,
          // H:MM:SS for a duration; a playlist's count of videos is the message's own plural.
          duration: seconds ? formatDuration(item.value) : '',
          count: item.value,
          // An element, not a string: a title is the catalogue's text, never markup to read.
          title: <bdi>{item.title}</bdi>,
        }}
        components={{
          0: <span className="text-zinc-600 dark:text-zinc-400" />,
          1: jump,
          2: <bdi className="tabular-nums" />,
        }}
      />
    </li>
  );
}

/** The line over the figure: what it covers, and how many items. */
function scopeText(summary: ListSummary, playlists: boolean, t: Translation['t']): string {
  const { range, count, totalItems } = summary;
  if (range) {
    const values = { from: range.from, to: range.to, count };
    return playlists
      ? t('wholeList.summary.scope.range.playlists', values)
      : t('wholeList.summary.scope.range.videos', values);
  }
  if (playlists) return t('wholeList.summary.scope.whole.playlists', { count });
  // A playlist states its length (a channel's lists do not).
  return totalItems !== null
    ? t('wholeList.summary.scope.whole.videosOfStated', { count, stated: totalItems })
    : t('wholeList.summary.scope.whole.videos', { count });
}

export function SummaryView({ summary, props }: { summary: ListSummary; props: WholeListProps }) {
  const translation = useTranslation();
  const { t, locale } = translation;
  const { measure, range } = summary;
  const seconds = measure.unit === 'seconds';
  const speedsId = useId();
  const playlists = props.list === 'channel-playlists';
  const clock = (value: number) => <bdi>{formatDuration(Math.round(value))}</bdi>;
  return (
    <div className="mt-2 space-y-3" data-testid="summary">
      <div>
        <p className={QUIET}>{scopeText(summary, playlists, t)}</p>
        {seconds ? (
          <p className="text-2xl font-bold tabular-nums text-zinc-900 dark:text-zinc-50">
            <Trans
              id="wholeList.summary.totalTime"
              values={{
                clock: formatDuration(measure.total),
                words: formatLongDuration(measure.total, locale),
              }}
              components={{
                0: <span data-testid="total-duration" dir="ltr" />,
                1: <span className="text-base font-medium text-zinc-700 dark:text-zinc-300" />,
              }}
            />
          </p>
        ) : (
          <p className="text-2xl font-bold tabular-nums text-zinc-900 dark:text-zinc-50">
            <Trans
              id="wholeList.summary.totalVideos"
              values={{ count: measure.total }}
              components={{
                0: <span data-testid="total-videos" />,
                1: <span className="text-base font-medium text-zinc-700 dark:text-zinc-300" />,
              }}
            />
          </p>
        )}
        {range?.clipped && (
          <p className={NOTE}>
            {t('wholeList.summary.clipped', { end: range.to, asked: range.requestedTo })}
          </p>
        )}
        {!summary.complete && (
          <p className="text-sm font-medium text-amber-800 dark:text-amber-300">
            {summary.stoppedBy
              ? `${t('wholeList.summary.partial')} ${problemSentence(summary.stoppedBy, translation)}`
              : t('wholeList.summary.partial')}
          </p>
        )}
      </div>
      {seconds && (
        <div>
          <p className={QUIET} id={speedsId}>
            {t('wholeList.summary.speeds')}
          </p>
          <dl
            aria-labelledby={speedsId}
            className="flex flex-wrap gap-x-4 gap-y-1 text-sm tabular-nums"
          >
            {SPEEDS.map((speed) => (
              <div key={speed} className="flex gap-1.5">
                <dt className="font-semibold text-zinc-700 dark:text-zinc-300">
                  {t('wholeList.summary.speed', { speed })}
                </dt>
                <dd
                  className="text-zinc-900 dark:text-zinc-100"
                  data-testid={`at-${speed}`}
                  dir="ltr"
                >
                  {formatDuration(Math.round(measure.total / speed))}
                </dd>
              </div>
            ))}
          </dl>
        </div>
      )}
      <ul className={`${NOTE} space-y-0.5`}>
        {measure.average !== null && (
          <li>
            {seconds ? (
              <Trans
                id={
                  measure.missing > 0
                    ? 'wholeList.summary.average.durationMissing'
                    : 'wholeList.summary.average.duration'
                }
                values={{
                  average: clock(measure.average),
                  median: clock(measure.median ?? 0),
                  missing: measure.missing,
                }}
              />
            ) : (
              t(
                measure.missing > 0
                  ? 'wholeList.summary.average.videosMissing'
                  : 'wholeList.summary.average.videos',
                {
                  average: Math.round(measure.average),
                  median: Math.round(measure.median ?? 0),
                  missing: measure.missing,
                },
              )
            )}
          </li>
        )}
        {measure.shortest && (
          <Notable
            message={seconds ? 'wholeList.summary.shortest' : 'wholeList.summary.fewest'}
            item={measure.shortest}
            seconds={seconds}
            props={props}
          />
        )}
        {measure.longest && (
          <Notable
            message={seconds ? 'wholeList.summary.longest' : 'wholeList.summary.most'}
            item={measure.longest}
            seconds={seconds}
            props={props}
          />
        )}
      </ul>
    </div>
  );
}
