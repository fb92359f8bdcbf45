import { useEffect, useState, type ReactNode } from 'react';
import { homePath } from '../../shared/app-routes.ts';
import type { FooterState } from '../hooks/use-paged-list.ts';
import { useTranslation } from '../i18n/use-translation.ts';
import { tryAgainIn, type ProblemText } from '../lib/problem-text.ts';
import { Button } from './ui/button.tsx';
import { TextLink } from './ui/text-link.tsx';

// The explicit states of a list (house style): pending (skeletons), failed first page (a full
// view message), empty, loading more, failed later page (an inline row), stopped, and the end.

export function SkeletonRows({
  count = 8,
  rowClassName,
  label,
}: {
  count?: number;
  /** The rows' heights, as classes (the markup is the same on every screen and on the server). */
  rowClassName: string;
  label: string;
}) {
  return (
    <div>
      <p role="status" className="sr-only">
        {label}
      </p>
      <div aria-hidden="true">
        {Array.from({ length: count }, (_, i) => (
          <RowShape
            key={i}
            className={rowClassName}
            tone="animate-pulse bg-zinc-200 dark:bg-zinc-800"
          />
        ))}
      </div>
    </div>
  );
}

/** Seconds left until `retryAfter` has passed since the error appeared. */
function useCountdown(seconds: number | null, since: number): number {
  const [now, setNow] = useState(() => Date.now());
  const left = seconds === null ? 0 : Math.max(0, Math.ceil(since / 1000 + seconds - now / 1000));
  useEffect(() => {
    if (left <= 0) return;
    const timer = window.setTimeout(() => setNow(Date.now()), 1000);
    return () => window.clearTimeout(timer);
  }, [left, now]);
  return left;
}

/** Retry, or (`reload`) start the list over. */
function RetryButton({ onRetry, reload = false }: { onRetry: () => void; reload?: boolean }) {
  const { t } = useTranslation();
  return (
    <Button size="md" onClick={onRetry}>
      {t(reload ? 'list.reload' : 'list.retry')}
    </Button>
  );
}

function WaitNote({ retryAfter, since }: { retryAfter: number | null; since: number }) {
  const words = useTranslation();
  const left = useCountdown(retryAfter, since);
  if (retryAfter === null || left <= 0) return null;
  return (
    <p role="timer" aria-live="off" className="text-sm text-zinc-700 dark:text-zinc-300">
      {tryAgainIn(left, words)}
    </p>
  );
}

interface ProblemViewProps {
  problem: ProblemText;
  /** When the error appeared (ms), for the Retry-After countdown. */
  since: number;
  onRetry?: () => void;
  /** Offered when retrying cannot help but starting over can (e.g. an expired continuation). */
  onReload?: () => void;
  /** h1 when the message is the whole view, h2 under a view's own heading. */
  headingLevel?: 1 | 2;
}

/** A failed first page: the whole view says what happened. */
export function ProblemView({
  problem,
  since,
  onRetry,
  onReload,
  headingLevel = 2,
}: ProblemViewProps) {
  const { t } = useTranslation();
  const Heading = headingLevel === 1 ? 'h1' : 'h2';
  return (
    <section
      role="alert"
      className="mx-auto my-10 max-w-xl rounded-xl border border-zinc-300 p-6 text-center dark:border-zinc-700"
    >
      <Heading className="text-xl font-semibold text-zinc-900 dark:text-zinc-50">
        {problem.title}
      </Heading>
      <p className="mt-2 text-zinc-700 break-words dark:text-zinc-300">{problem.detail}</p>
      <div className="mt-4 flex flex-col items-center gap-3">
        <WaitNote retryAfter={problem.retryAfter} since={since} />
        <div className="flex flex-wrap justify-center gap-3">
          {problem.canRetry && onRetry && <RetryButton onRetry={onRetry} />}
          {problem.canReload && onReload && <RetryButton onRetry={onReload} reload />}
          <TextLink
            to={homePath()}
            className="rounded-md px-4 py-2 text-sm font-semibold underline-offset-4"
          >
            {t('view.goHome')}
          </TextLink>
        </div>
      </div>
    </section>
  );
}

/** The outline of a row: a thumbnail and two lines of text, in `tone`. */
function RowShape({ className, tone }: { className: string; tone: string }) {
  return (
    <div aria-hidden="true" className={`flex items-center gap-3 px-2 ${className}`}>
      <div className={`aspect-video w-28 shrink-0 rounded-lg sm:w-40 ${tone}`} />
      <div className="flex-1 space-y-2">
        <div className={`h-4 w-3/4 rounded ${tone}`} />
        <div className={`h-3 w-1/3 rounded ${tone}`} />
      </div>
    </div>
  );
}

/**
 * A row not loaded yet, quieter than the first page's skeleton (there may be thousands to pass):
 * the shape of a row, so the page that fills it shifts nothing.
 */
export function PlaceholderRow() {
  return <RowShape className="h-full" tone="bg-zinc-100 dark:bg-zinc-900" />;
}

/**
 * While a reader looks at placeholders (they dragged the scrollbar, pressed End or paged far
 * down), how far the pages up to them have come, at the bottom of the window; the same place
 * says so when a page failed, with Retry.
 */
export function LoadProgress({
  waiting,
  loaded,
  onRetry,
}: {
  waiting: { upTo: number; failed: boolean };
  loaded: number;
  onRetry?: () => void;
}) {
  const { t } = useTranslation();
  const percent = Math.min(100, Math.round((loaded / Math.max(1, waiting.upTo)) * 100));
  return (
    <div className="pointer-events-none fixed inset-x-0 bottom-4 z-20 flex justify-center px-3">
      <div
        role="status"
        className="pointer-events-auto flex w-full max-w-md flex-col gap-2 rounded-xl border border-zinc-200 bg-white/95 p-3 text-sm shadow-lg dark:border-zinc-700 dark:bg-zinc-900/95"
      >
        {waiting.failed ? (
          <div className="flex items-center justify-between gap-3">
            <span className="text-zinc-800 dark:text-zinc-200">
              {t('list.progress.failed', { loaded })}
            </span>
            {onRetry && <RetryButton onRetry={onRetry} />}
          </div>
        ) : (
          <>
            <span className="text-zinc-800 dark:text-zinc-200">
              {t('list.progress.loading', { upTo: waiting.upTo, loaded })}
            </span>
            <progress
              className="h-1.5 w-full overflow-hidden rounded-full [&::-webkit-progress-bar]:bg-zinc-200 [&::-webkit-progress-value]:bg-blue-600 dark:[&::-webkit-progress-bar]:bg-zinc-700 dark:[&::-webkit-progress-value]:bg-blue-400"
              max={100}
              value={percent}
              aria-label={t('list.progress.label')}
            />
          </>
        )}
      </div>
    </div>
  );
}

export function EmptyState({ children }: { children: ReactNode }) {
  return (
    <p className="my-10 rounded-xl border border-dashed border-zinc-300 p-8 text-center text-zinc-700 dark:border-zinc-700 dark:text-zinc-300">
      {children}
    </p>
  );
}

/** The row after the last item: loading more, a failed page with Retry, or the end line. */
export function ListFooter({ state }: { state: FooterState }) {
  const { t } = useTranslation();
  switch (state.kind) {
    case 'more':
    case 'loading':
      // Skipped by the browser while off screen, as it is while the reader is far up the list:
      // a spinner that turns out of sight would still cost a style update and a paint a frame.
      return (
        <div className="flex h-16 items-center justify-center gap-2 text-sm text-zinc-600 [content-visibility:auto] [contain-intrinsic-size:auto_4rem] dark:text-zinc-400">
          <span
            aria-hidden="true"
            className="size-4 animate-spin rounded-full border-2 border-current border-t-transparent"
          />
          <span role="status">{t('list.footer.loadingMore')}</span>
        </div>
      );
    case 'error':
      return (
        <div
          role="alert"
          className="my-3 flex flex-col items-center gap-2 rounded-xl border border-red-300 p-4 text-center dark:border-red-800"
        >
          <p className="font-semibold text-zinc-900 dark:text-zinc-50">
            {t('list.footer.failed', { problem: state.problem.title })}
          </p>
          <p className="text-sm text-zinc-700 dark:text-zinc-300">{state.problem.detail}</p>
          <WaitNote retryAfter={state.problem.retryAfter} since={state.since} />
          {state.problem.canRetry ? (
            <RetryButton onRetry={state.onRetry} />
          ) : (
            <RetryButton onRetry={state.onReload} reload />
          )}
        </div>
      );
    case 'stopped':
      return (
        <p
          role="status"
          className="my-3 rounded-xl border border-amber-400 p-4 text-center text-sm text-zinc-800 dark:border-amber-700 dark:text-zinc-200"
        >
          {state.text}
        </p>
      );
    case 'end':
      return (
        <p className="flex h-16 items-center justify-center gap-3 text-sm text-zinc-600 before:h-px before:flex-1 before:bg-zinc-300 after:h-px after:flex-1 after:bg-zinc-300 dark:text-zinc-400 dark:before:bg-zinc-700 dark:after:bg-zinc-700">
          {state.text}
        </p>
      );
  }
}
