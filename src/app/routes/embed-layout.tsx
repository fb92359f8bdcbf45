import { useLocation } from 'react-router';
import { readEmbedTheme } from '../../shared/embed-theme.ts';
import { cx } from '../components/ui/class-names.ts';
import { FOCUS_RING_OUTSIDE } from '../components/ui/focus-ring.ts';
import { useHydrationMark } from '../hooks/use-hydration-mark.ts';
import { useTranslation } from '../i18n/use-translation.ts';
import { OpensOutside } from '../lib/link-target.ts';
import { ViewOutlet } from './root-layout.tsx';

// The frame of an embed (`/embed/…`): a list on its own inside someone else's page, without
// the app's header, every link of ours opening in a new tab, in the host's colour scheme or
// the one `?theme=` pins, and a footer that opens the full view.

const FOOTER_ID = 'embed-footer';

export function EmbedLayout() {
  const { pathname, search } = useLocation();
  useHydrationMark();
  const { t } = useTranslation();
  const theme = readEmbedTheme(new URLSearchParams(search).get('theme'));
  // The full view of the same list: the embed's path without its prefix.
  const fullView = pathname.replace(/^\/embed/, '');
  return (
    <OpensOutside value={true}>
      {/* No paint until the footer is parsed: the rows then appear whole. In a frame the list
          is the first thing on screen, and a paint between two chunks of the document showed a
          row's title before its other lines, which then moved it (a layout shift). React puts
          the link in <head>, where it holds rendering back. */}
      <link rel="expect" href={`#${FOOTER_ID}`} blocking="render" />
      <div
        data-theme={theme}
        className={cx(
          'flex min-h-dvh flex-col bg-white text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100',
          // Form controls and scrollbars in the pinned scheme too (no inline style: the CSP).
          theme === 'dark' && 'scheme-dark',
          theme === 'light' && 'scheme-light',
        )}
      >
        <main id="main" className="w-full flex-1 px-2 pb-4">
          <ViewOutlet />
        </main>
        <footer
          id={FOOTER_ID}
          className="sticky bottom-0 z-20 flex items-center justify-between gap-2 border-t border-zinc-200 bg-white/95 px-3 py-2 text-sm dark:border-zinc-800 dark:bg-zinc-950/95"
        >
          <span className="flex items-center gap-2 font-semibold">
            <img src="/favicon.svg" alt="" width="20" height="20" className="size-5" />
            {t('app.name')}
          </span>
          <a
            href={fullView}
            target="_blank"
            rel="noopener"
            className={cx(
              'rounded font-medium text-blue-700 hover:underline dark:text-blue-300',
              FOCUS_RING_OUTSIDE,
            )}
          >
            {t('embed.openFullList')}
            <span className="sr-only">{` ${t('link.opensInNewTab')}`}</span>
          </a>
        </footer>
      </div>
    </OpensOutside>
  );
}
