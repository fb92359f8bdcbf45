import { useEffect, useId, useRef, useState } from 'react';
import { cx } from '../components/ui/class-names.ts';
import { FOCUS_RING } from '../components/ui/focus-ring.ts';
import { TextButton } from '../components/ui/text-link.tsx';
import { readerMovedFirst, useArrivedByHydration, useHydrated } from '../hooks/use-hydrated.ts';
import { useTranslation } from '../i18n/use-translation.ts';
import { storedUnfinishedJob } from '../jobs/job-list-key.ts';
import type { WholeListProps } from './panel-props.ts';
// Types only (erased): the panel's code is loaded by the dynamic import below.
import type * as PanelExports from './panel.tsx';

// The "Whole list" disclosure on every list view. Its panel (load all, totals, find, sort,
// charts, export) is a code chunk of its own, downloaded the first time it opens, so the views
// and the first visit do not carry it. The server renders the disclosure (open when the link
// names the panel's choices) with a loading line; the panel itself draws only in the browser,
// once hydrated, so hydration meets exactly the server's markup. A list with a job of this
// browser's still running opens its panel on arrival, where the job's progress is (docs/jobs.md):
// the reader who started it comes back to see how far it is.

type PanelModule = typeof PanelExports;

let panelModule: PanelModule | null = null;
let panelLoading: Promise<PanelModule> | null = null;
function loadPanel(): Promise<PanelModule> {
  panelLoading ??= import('./panel.tsx').then(
    (module) => (panelModule = module),
    (error: unknown) => {
      panelLoading = null; // a retry downloads again
      throw error;
    },
  );
  return panelLoading;
}

function usePanelModule(wanted: boolean): {
  module: PanelModule | null;
  failed: boolean;
  retry: () => void;
} {
  const [module, setModule] = useState<PanelModule | null>(panelModule);
  const [failed, setFailed] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!wanted || module !== null) return;
    let live = true;
    loadPanel().then(
      (loaded) => live && setModule(loaded),
      () => live && setFailed(true),
    );
    return () => {
      live = false;
    };
  }, [wanted, module, attempt]);
  return {
    module,
    failed,
    retry: () => {
      setFailed(false);
      setAttempt((n) => n + 1);
    },
  };
}

/** Opens the panel once, on arrival, when this browser has an unfinished job on the list. */
function useOpenForJob({ list, id, host }: Pick<WholeListProps, 'list' | 'id' | 'host'>): void {
  const hydrated = useHydrated();
  const arrivedByHydration = useArrivedByHydration();
  const asked = useRef(false);
  const { open, toggle } = host;
  useEffect(() => {
    if (!hydrated || asked.current) return;
    asked.current = true;
    // Not under a reader who has already moved the server's page: the panel would push it.
    if (open || readerMovedFirst(arrivedByHydration)) return;
    if (storedUnfinishedJob({ list, id })) toggle();
  }, [hydrated, arrivedByHydration, open, toggle, list, id]);
}

export function WholeListSlot(props: WholeListProps) {
  const { host } = props;
  const { t } = useTranslation();
  const hydrated = useHydrated();
  useOpenForJob(props);
  const { module, failed, retry } = usePanelModule(host.open && hydrated);
  const headingId = useId();
  const bodyId = useId();
  const Panel = hydrated && host.open ? module : null;
  return (
    <>
      <section
        aria-labelledby={headingId}
        className="mb-2 rounded-xl border border-zinc-200 bg-zinc-50 dark:border-zinc-800 dark:bg-zinc-900/60"
      >
        <h2 className="text-base font-semibold">
          <button
            type="button"
            aria-expanded={host.open}
            aria-controls={bodyId}
            onClick={host.toggle}
            className={cx(
              'flex w-full items-center gap-2 rounded-xl px-4 py-3 text-start text-zinc-900 hover:bg-zinc-100 dark:text-zinc-50 dark:hover:bg-zinc-800',
              FOCUS_RING,
            )}
          >
            {/* Closed, it points the way the line reads; open, down. A right-to-left page mirrors
                it, so there it turns the other way to point down. */}
            <span
              aria-hidden="true"
              className={`inline-block text-xs transition-transform rtl:-scale-x-100 ${host.open ? 'rotate-90 rtl:-rotate-90' : ''}`}
            >
              {/* Text presentation: with a colour emoji font, a bare ▶ draws as a play button. */}
              {'\u25B6\uFE0E'}
            </span>
            <span id={headingId}>{t('wholeList.title')}</span>
            <span
              aria-hidden="true"
              className="ms-auto hidden truncate text-sm font-normal text-zinc-600 sm:inline dark:text-zinc-400"
            >
              {t('wholeList.contents')}
            </span>
          </button>
        </h2>
        <div id={bodyId} hidden={!host.open} className="px-4 pb-4">
          {Panel ? (
            <Panel.WholeListPanel {...props} />
          ) : failed ? (
            <p role="alert" className="text-sm text-zinc-800 dark:text-zinc-200">
              {t('wholeList.panel.loadFailed')}{' '}
              <TextButton onClick={retry} className="font-semibold underline">
                {t('wholeList.panel.retry')}
              </TextButton>
            </p>
          ) : host.open ? (
            <p role="status" className="text-sm text-zinc-600 dark:text-zinc-400">
              {t('wholeList.panel.loading')}
            </p>
          ) : null}
        </div>
      </section>
      {Panel && <Panel.FindBar {...props} />}
    </>
  );
}
