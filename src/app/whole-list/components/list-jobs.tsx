import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { jobsPath } from '../../../shared/app-routes.ts';
import type { Job } from '../../../shared/jobs.ts';
import { listSummarySchema } from '../../../shared/whole-list.ts';
import { getParsed } from '../../api/api-client.ts';
import { TextLink } from '../../components/ui/text-link.tsx';
import { useTranslation } from '../../i18n/use-translation.ts';
import { JobCard } from '../../jobs/job-card.tsx';
import type { StoredJob } from '../../jobs/job-list.ts';
import type { StartJob } from '../../jobs/use-start-job.ts';
import { failureSentence } from '../../lib/problem-text.ts';
import type { WholeListProps } from '../panel-props.ts';
import { CARD, NOTE, SUBHEADING } from './panel-styles.ts';
import { SummaryView } from './summary-view.tsx';

// The jobs this browser started on this list (jobs/job-list.ts), found again after a reload or
// on coming back to the list: their progress, cancel, notification and download, and a done
// summary's total shown here as the synchronous total is. A job that could not start, or that
// this browser could not keep in its list, says so here.

/** A done summary job's result: the list's summary, as the total card shows one. */
function JobSummary({ job, props }: { job: Job; props: WholeListProps }) {
  const translation = useTranslation();
  const href = job.result?.href ?? '';
  const summary = useQuery({
    queryKey: ['jobs', job.id, 'result', href],
    queryFn: ({ signal }) => getParsed(href, listSummarySchema, signal),
    // A result never changes once written.
    staleTime: Infinity,
    enabled: href !== '',
  });
  if (summary.isError)
    return (
      <p role="alert" className={NOTE}>
        {translation.t('wholeList.totals.failed', {
          reason: failureSentence(summary.error, translation),
        })}
      </p>
    );
  return summary.data ? <SummaryView summary={summary.data} props={props} /> : null;
}

export function ListJobs({
  jobs,
  listJobs,
  props,
}: {
  jobs: StartJob;
  listJobs: readonly StoredJob[];
  props: WholeListProps;
}) {
  const translation = useTranslation();
  const { t } = translation;
  const headingId = useId();
  return (
    <section className={CARD} aria-labelledby={headingId}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={headingId} className={SUBHEADING}>
          {t('jobs.panel.heading')}
        </h3>
        <TextLink to={jobsPath()} className="text-sm">
          {t('jobs.panel.all')}
        </TextLink>
      </div>
      {jobs.error !== null && (
        <p role="alert" className={`${NOTE} mt-2`}>
          {t('jobs.startFailed', { reason: failureSentence(jobs.error, translation) })}
        </p>
      )}
      {jobs.notKept !== null && (
        <p role="alert" className={`${NOTE} mt-2`}>
          {t(jobs.notKept === 'full' ? 'jobs.notKept.full' : 'jobs.notKept.unavailable')}
        </p>
      )}
      <ul className="mt-2 space-y-2">
        {listJobs.map((job) => (
          <JobCard
            key={job.id}
            stored={job}
            plain
            whenDone={(done) =>
              done.request.kind === 'summary' ? <JobSummary job={done} props={props} /> : null
            }
          />
        ))}
      </ul>
    </section>
  );
}
