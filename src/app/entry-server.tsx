import { setupI18n, type I18n, type Messages } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { dehydrate, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { StaticRouter } from 'react-router';
import { channelTitleKey, screenClassKey, type RenderApp } from '../shared/app-render.ts';
import { matchAppRoute } from '../shared/app-routes.ts';
import { seedFirstPage } from './api/first-page.ts';
import { createQueryClient } from './api/query-client.ts';
import { App } from './app.tsx';
import { preloadViewFor } from './views.tsx';

// The app on the server: the view a URL shows, rendered as the client renders it first (same
// routes, same components, same query cache), so the browser shows the rows before any script
// runs and the client hydrates the markup instead of drawing it again. The query cache is a
// new one per request: nothing of one visitor's request reaches another's.

// One Lingui instance per catalog the server passes (one per locale, compiled once).
const instances = new WeakMap<Messages, I18n>();

function i18nFor(locale: string, messages: Messages): I18n {
  let i18n = instances.get(messages);
  if (!i18n) {
    i18n = setupI18n({ locale, messages: { [locale]: messages } });
    instances.set(messages, i18n);
  }
  return i18n;
}

export const render: RenderApp = async ({ url, first, channelTitle, locale, messages, screen }) => {
  // Glued to the base rather than resolved against it: a path that starts with `//` would
  // otherwise read as a host (`//evil/x`), or fail to parse at all (`//`).
  const location = new URL(`http://localhost${url.startsWith('/') ? '' : '/'}${url}`);
  // Views are code chunks read with `use`: once loaded, they render without suspending.
  await preloadViewFor(location.pathname);
  const queryClient = createQueryClient();
  if (first) seedFirstPage(queryClient, first, location);
  const channelId = matchAppRoute(location.pathname)?.id;
  if (channelTitle && channelId) queryClient.setQueryData(channelTitleKey(channelId), channelTitle);
  // Wide is what the client assumes when the cache says nothing.
  if (screen !== 'wide') queryClient.setQueryData(screenClassKey, screen);
  const markup = renderToString(
    <StrictMode>
      <I18nProvider i18n={i18nFor(locale, messages)}>
        <QueryClientProvider client={queryClient}>
          <StaticRouter location={url}>
            <App />
          </StaticRouter>
        </QueryClientProvider>
      </I18nProvider>
    </StrictMode>,
  );
  // Pages and definite answers (a not-found list) go to the client; nothing in flight does.
  const state = dehydrate(queryClient, {
    shouldDehydrateQuery: (query) => query.state.status !== 'pending',
  });
  queryClient.clear();
  return { ...splitHoisted(markup), state };
};

const HOISTED = /^(?:<(?:link|meta)\b[^>]*>|<title>[\s\S]*?<\/title>)/;

/**
 * renderToString writes the elements React hoists to <head> (a view's <title>, image
 * preloads) before the markup; they belong in <head>, not inside `#root`, where hydration
 * would not expect them. React escapes `<` and `>` in text and attributes, so a tag ends at
 * the first `>` and a title at the first `</title>`.
 */
function splitHoisted(markup: string): { head: string; html: string } {
  let rest = markup;
  let head = '';
  for (let match = HOISTED.exec(rest); match; match = HOISTED.exec(rest)) {
    if (!match[0].startsWith('<title>')) head += match[0];
    rest = rest.slice(match[0].length);
  }
  return { head, html: rest };
}
