import { Suspense } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { followingPath, homePath, jobsPath } from '../../shared/app-routes.ts';
import { cx } from '../components/ui/class-names.ts';
import { FOCUS_RING_OUTSIDE } from '../components/ui/focus-ring.ts';
import { useHydrationMark } from '../hooks/use-hydration-mark.ts';
import { useTranslation } from '../i18n/use-translation.ts';
import { LanguagePicker } from '../i18n/language-picker.tsx';
import { JobWatchSlot } from '../jobs/job-watch-slot.tsx';
import { RouteErrorBoundary } from './route-error.tsx';

// The frame around every view: a skip link, the app's name linking home, the reader's own pages
// (Following, Jobs), and the main region with the views' error boundary and the fallback shown
// while a view's code downloads. The jobs' watcher, which says when a job ends wherever the
// reader is, comes with the frame, but downloads only once there is a job to watch.

const NAV_LINK = cx(
  'rounded text-sm font-semibold text-zinc-800 hover:underline dark:text-zinc-200',
  FOCUS_RING_OUTSIDE,
);

export function RootLayout() {
  useHydrationMark();
  const { t } = useTranslation();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:start-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:text-blue-700 focus:outline-2 focus:outline-blue-600 dark:focus:bg-zinc-900 dark:focus:text-blue-300"
      >
        {t('app.skipToContent')}
      </a>
      <header className="border-b border-zinc-200 dark:border-zinc-800">
        {/* Columns fixed from the first byte: a header painted before the picker is parsed
            keeps Following and Jobs where they will stay. */}
        <div className="mx-auto grid h-14 max-w-5xl grid-cols-[auto_1fr_auto_7rem] items-center gap-3 px-3 sm:grid-cols-[auto_1fr_auto_11rem] sm:px-6">
          <Link
            to={homePath()}
            className={cx(
              'flex shrink-0 items-center gap-2 rounded font-semibold whitespace-nowrap text-zinc-900 dark:text-zinc-50',
              FOCUS_RING_OUTSIDE,
            )}
          >
            <img src="/favicon.svg" alt="" width="24" height="24" className="size-6" />
            {/* On a phone the header holds the icon alone, beside Following and the picker. */}
            <span className="sr-only sm:not-sr-only">{t('app.name')}</span>
          </Link>
          <div className="col-start-3 flex items-center gap-3">
            <Link to={followingPath()} className={NAV_LINK}>
              {t('following.title')}
            </Link>
            <Link to={jobsPath()} className={NAV_LINK}>
              {t('jobs.title')}
            </Link>
          </div>
          <LanguagePicker />
        </div>
      </header>
      <main
        id="main"
        tabIndex={-1}
        className="mx-auto w-full max-w-5xl flex-1 px-3 pb-16 outline-none sm:px-6"
      >
        <ViewOutlet />
      </main>
      <JobWatchSlot />
    </div>
  );
}

/** The view, with the views' error boundary and the fallback while its code downloads. */
export function ViewOutlet() {
  const { pathname } = useLocation();
  return (
    <RouteErrorBoundary key={pathname}>
      <Suspense fallback={<ViewFallback />}>
        <Outlet />
      </Suspense>
    </RouteErrorBoundary>
  );
}

function ViewFallback() {
  const { t } = useTranslation();
  return (
    <p role="status" className="py-8 text-zinc-600 dark:text-zinc-400">
      {t('app.loading')}
    </p>
  );
}
