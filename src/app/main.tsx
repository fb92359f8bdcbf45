import { QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { createQueryClient } from './api/query-client.ts';
import { App } from './app.tsx';
import { trackWindowScroll } from './lib/scroll-memory.ts';
import { preloadViewFor } from './views.tsx';
import './app.css';

// Boot: the current view's code starts downloading at once; a deep link's first page, shipped
// in the HTML, seeds the cache before the first render so it is not fetched again.

const viewReady = preloadViewFor(window.location.pathname);

/** How long the first render waits for the view's code before showing the frame alone. */
const VIEW_WAIT_MS = 1000;

// Scroll positions are remembered per history entry (lib/scroll-memory.ts), keyed like the
// router keys entries, by `history.state.key`. The entry a tab opened on has no key (the router
// calls it "default", like every tab's first entry), so it gets one of its own first.
const state: unknown = window.history.state;
if (!(state && typeof state === 'object' && 'key' in state)) {
  window.history.replaceState(
    { ...(state as object | null), key: Math.random().toString(36).slice(2, 10) },
    '',
  );
}
trackWindowScroll();

const queryClient = createQueryClient();

// Only a JSON data block needs the parsing code (and its schemas); most loads have none.
if (document.querySelector('script[type="application/json"]')) {
  const { seedFromDocument } = await import('./api/initial-page.ts');
  seedFromDocument(queryClient);
}

// Rendered once the view is in: the rows appear in the first commit, with no fallback
// first. On a slow connection the frame shows after VIEW_WAIT_MS and the view follows.
await Promise.race([viewReady, new Promise((resolve) => setTimeout(resolve, VIEW_WAIT_MS))]);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </QueryClientProvider>
  </StrictMode>,
);
