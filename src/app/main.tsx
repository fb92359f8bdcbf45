import { setupI18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { hydrate, QueryClientProvider, type DehydratedState } from '@tanstack/react-query';
import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { APP_STATE_ELEMENT_ID } from '../shared/app-render.ts';
import { reviveApiError } from './api/api-error.ts';
import { createQueryClient } from './api/query-client.ts';
import { App } from './app.tsx';
import { HydrationState } from './components/hydration-state.tsx';
import { documentLocale, loadPageCatalog } from './i18n/load-catalog.ts';
import { prepareNumberFormats } from './lib/format.ts';
import { trackWindowScroll } from './lib/scroll-memory.ts';
import { preloadViewFor } from './views.tsx';

// Boot. The server has rendered the view (entry-server.tsx) and sent the query cache it rendered
// from: the cache is restored first, so the first render on the client produces exactly the
// server's markup and hydrates it, with no request for what the HTML already holds.

const viewReady = preloadViewFor(window.location.pathname);

// Scroll positions are remembered per history entry (lib/scroll-memory.ts), by the key the router
// first gives the entry (`history.state.key`, lib/history-entry.ts). The entry a tab opened on
// has no key (the router calls it "default", like every tab's first entry), so it gets one of
// its own first.
const state: unknown = window.history.state;
if (!(state && typeof state === 'object' && 'key' in state)) {
  window.history.replaceState(
    { ...(state as object | null), key: Math.random().toString(36).slice(2, 10) },
    '',
  );
}
trackWindowScroll();

const root = document.getElementById('root')!;
const queryClient = createQueryClient();
restoreServerCache();

// The view's code and the page's messages are in before hydrating: hydration then meets the
// whole server markup at once, in the language it was written in.
const locale = documentLocale();
const [messages] = await Promise.all([loadPageCatalog(), viewReady]);
const i18n = setupI18n({ locale, messages: { [locale]: messages } });
// What hydration would do first and at length goes in tasks of its own, so that no task of the
// start-up keeps a reader's tap waiting for long on a phone.
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
await prepareNumberFormats(locale, nextTask);
await nextTask();

const hydrating = root.firstElementChild !== null;
const app = (
  <StrictMode>
    <I18nProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <HydrationState hydrating={hydrating}>
            <App />
          </HydrationState>
        </BrowserRouter>
      </QueryClientProvider>
    </I18nProvider>
  </StrictMode>
);
// Hydration as a transition: React then works through the server's markup in slices, yielding
// to the browser between them (a reader's scroll, a tap), rather than in one long task.
if (hydrating)
  startTransition(() => {
    hydrateRoot(root, app);
  });
else createRoot(root).render(app);

function restoreServerCache(): void {
  const element = document.getElementById(APP_STATE_ELEMENT_ID);
  if (!element?.textContent) return;
  try {
    hydrate(queryClient, JSON.parse(element.textContent) as DehydratedState);
  } catch {
    return; // an unreadable block: the view fetches its page itself
  }
  // Errors travel as plain objects; the views explain ApiErrors. A wait the server asked for
  // (Retry-After) counts from now, when its answer arrived, not from the server's clock: the
  // countdown then starts where the server's markup shows it, whatever the two clocks say.
  const now = Date.now();
  for (const query of queryClient.getQueryCache().getAll()) {
    const { error } = query.state;
    if (error)
      query.setState({
        error: reviveApiError(error),
        fetchFailureReason: null,
        errorUpdatedAt: now,
      });
  }
}
