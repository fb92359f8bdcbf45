import { useHydrated } from '../hooks/use-hydrated.ts';
import { useTranslation } from '../i18n/use-translation.ts';
import { JobCard } from './job-card.tsx';
import { useJobList } from './job-list.ts';
import { NOTE } from './job-styles.ts';

// `/jobs`: the whole-list jobs this browser started (docs/jobs.md), newest first, each with its
// progress, its result and a way back to its list. The list is this browser's own (job-list.ts),
// so the server renders the frame and a loading line, and the browser fills it in. A job the
// server no longer has says so and can be removed.

export function JobsRoute() {
  const { t } = useTranslation();
  const hydrated = useHydrated();
  const jobs = useJobList();
  return (
    <div className="py-6">
      <title>{t('title.withSite', { title: t('jobs.title') })}</title>
      <h1 className="text-2xl font-bold text-zinc-900 dark:text-zinc-50">{t('jobs.heading')}</h1>
      <p className={`${NOTE} mt-2 max-w-3xl`}>{t('jobs.intro')}</p>
      {!hydrated ? (
        <p role="status" className="mt-4 text-zinc-600 dark:text-zinc-400">
          {t('app.loading')}
        </p>
      ) : jobs.length === 0 ? (
        <p className="mt-4 text-zinc-700 dark:text-zinc-300">{t('jobs.empty')}</p>
      ) : (
        <ul className="mt-4 grid grid-cols-1 gap-3 md:grid-cols-2" aria-label={t('jobs.title')}>
          {jobs.map((job) => (
            <JobCard key={job.id} stored={job} showList />
          ))}
        </ul>
      )}
    </div>
  );
}
