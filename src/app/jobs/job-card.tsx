import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { channelPath, playlistPath } from '../../shared/app-routes.ts';
import { isFinished, type Job, type JobRequest } from '../../shared/jobs.ts';
import { buttonClass, Button } from '../components/ui/button.tsx';
import { TextLink } from '../components/ui/text-link.tsx';
import { useTranslation, type Translation } from '../i18n/use-translation.ts';
import { failureSentence } from '../lib/problem-text.ts';
import { cancelJob, isGone, jobKey, jobOptions } from './job-api.ts';
import { jobList, type StoredJob } from './job-list.ts';
import { BAR, CARD, NOTE, QUIET, WARNING } from './job-styles.ts';
import {
  clockTime,
  estimateText,
  kindText,
  listText,
  percentOf,
  progressText,
  sizeText,
  stateText,
} from './job-text.ts';
import { NotifyButton } from './notify-button.tsx';

// One job as the reader sees it, in the Whole list panel and in the jobs view: what it is, where
// it is (items so far, the percentage once the list's length is known, the time left, a wait for
// quota and until when), and what can be done with it: cancel, be notified, download, remove.
// The state is also in `data-job-state` and `data-items`, for tests that wait on it in any
// language.

/** The list's page in the app. */
function listPath(request: JobRequest): string {
  if (request.list === 'playlist') return playlistPath(request.id);
  return channelPath(request.id, request.list === 'channel-playlists' ? 'playlists' : 'videos');
}

/** The file's name, for a result the server does not name itself (a summary, a whole list). */
function fileName(request: JobRequest): string {
  const ext = request.kind === 'export' ? (request.format ?? 'csv') : 'json';
  return `${request.id} ${request.list} ${request.kind}.${ext}`;
}

function Progress({
  job,
  now,
  translation,
}: {
  job: Job;
  /** When the job was read: what its times are told against (today or another day). */
  now: number;
  translation: Translation;
}) {
  const { t, locale } = translation;
  const percent = percentOf(job);

  const estimate = isFinished(job.state) ? null : estimateText(job, translation, now);
  const progress = progressText(job, translation);
  return (
    <div className="space-y-1">
      {/* A bar only while it can say how far: an indeterminate one reads as stuck at nothing. */}
      {percent !== null && !isFinished(job.state) && (
        <progress
          aria-label={t('jobs.progress.label')}
          aria-valuetext={progress}
          className={BAR}
          max={100}
          value={percent}
        />
      )}
      <p className={`${QUIET} tabular-nums`} data-testid="job-progress">
        {progress}
        {' · '}
        {t('jobs.progress.lookups', { lookups: job.progress.lookups })}
        {job.result && (
          <>
            {' · '}
            {t('jobs.result.kept', { time: clockTime(job.result.expiresAt, locale, now) })}
          </>
        )}
      </p>
      {estimate && <p className={QUIET}>{estimate}</p>}
    </div>
  );
}

/** The dot before the state: its colour says it at a glance (the words say it to everyone). */
const DOTS: Record<string, string> = {
  queued: 'bg-zinc-400',
  running: 'bg-blue-600 dark:bg-blue-400 motion-safe:animate-pulse',
  waiting: 'bg-amber-500',
  done: 'bg-green-600 dark:bg-green-400',
  failed: 'bg-red-600 dark:bg-red-400',
  cancelled: 'bg-zinc-400',
  gone: 'bg-zinc-400',
  checking: 'bg-zinc-300 dark:bg-zinc-600',
};

export function JobCard({
  stored,
  showList = false,
  plain = false,
  whenDone,
}: {
  stored: StoredJob;
  /** Without a card's border, inside one (the panel's). */
  plain?: boolean;
  /** The list's name as a link to it (the jobs view; the panel is on the list already). */
  showList?: boolean;
  /** What a done job shows beside its download (the panel shows a summary's total). */
  whenDone?: (job: Job) => ReactNode;
}) {
  const translation = useTranslation();
  const { t, locale } = translation;
  const queryClient = useQueryClient();
  const answer = useQuery({ ...jobOptions(stored.id), enabled: stored.ended !== 'gone' });
  const gone = stored.ended === 'gone' || (answer.isError && isGone(answer.error));
  useEffect(() => {
    if (gone) jobList.markEnded(stored.id, 'gone');
  }, [gone, stored.id]);
  // A cancel in flight, or why it failed (plain state: the query library's mutations would add
  // to the code every page downloads first).
  const [cancel, setCancel] = useState<{ pending: boolean; error: unknown }>({
    pending: false,
    error: null,
  });
  const cancelNow = () => {
    setCancel({ pending: true, error: null });
    cancelJob(stored.id).then(
      (job) => {
        queryClient.setQueryData(jobKey(job.id), job);
        jobList.markEnded(job.id, 'cancelled');
        setCancel({ pending: false, error: null });
      },
      (error: unknown) => setCancel({ pending: false, error }),
    );
  };

  const job = gone ? undefined : answer.data;
  const state = gone ? 'gone' : (job?.state ?? 'checking');
  const finished = gone || (job !== undefined && isFinished(job.state));
  const kind = kindText(stored.request, translation);
  return (
    <li
      className={`${plain ? 'rounded-md bg-zinc-50 p-3 dark:bg-zinc-900' : CARD} space-y-2`}
      data-testid="job"
      data-job-id={stored.id}
      data-job-state={state}
      data-items={job?.progress.items ?? 0}
    >
      <div className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <h3 className="text-sm font-semibold text-zinc-900 dark:text-zinc-50">{kind}</h3>
        {showList && (
          <TextLink to={listPath(stored.request)} className="min-w-0 truncate text-sm">
            <bdi>{listText(stored.request, stored.title, translation)}</bdi>
          </TextLink>
        )}
      </div>
      <p
        role="status"
        aria-live="polite"
        className={`flex items-baseline gap-2 ${job?.state === 'failed' || gone ? WARNING : NOTE}`}
      >
        <span
          aria-hidden="true"
          className={`inline-block size-2 shrink-0 translate-y-[-1px] rounded-full ${DOTS[state]}`}
        />
        <span>
          {gone
            ? t('jobs.state.gone')
            : job
              ? stateText(job, translation, answer.dataUpdatedAt)
              : answer.isError
                ? t('jobs.state.unknown', { reason: failureSentence(answer.error, translation) })
                : t('jobs.state.checking')}
        </span>
      </p>
      {job && <Progress job={job} now={answer.dataUpdatedAt} translation={translation} />}
      {job?.state === 'done' && whenDone?.(job)}
      {cancel.error !== null && (
        <p role="alert" className={WARNING}>
          {t('jobs.cancelFailed', { reason: failureSentence(cancel.error, translation) })}
        </p>
      )}
      <div className="flex flex-wrap items-center gap-2">
        {job?.result && (
          <a
            href={job.result.href}
            download={fileName(stored.request)}
            className={buttonClass('primary', 'sm')}
          >
            {t('jobs.download', { size: sizeText(job.result.bytes, locale) })}
          </a>
        )}
        {job && !finished && (
          <>
            <Button size="sm" variant="secondary" onClick={cancelNow} disabled={cancel.pending}>
              {t('jobs.cancel')}
            </Button>
            <NotifyButton job={stored} />
          </>
        )}
        {(finished || answer.isError) && (
          <Button size="sm" variant="secondary" onClick={() => jobList.remove(stored.id)}>
            {t('jobs.remove')}
          </Button>
        )}
      </div>
    </li>
  );
}
