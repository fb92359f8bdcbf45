import { escapeHtml } from './preview-text.ts';
import { translationsFor } from './translations.ts';
import { formatsFor } from '../../shared/i18n/formats.ts';
import { directionOf, type CatalogLocale } from '../../shared/locales.ts';

// The HTML a browser gets when the server will not render a view for it now (a client past its
// render allowance, routes/app-pages.ts): the status says so to a crawler or a script, and a
// person sees what the app shows for a 429 (list-states.tsx `ProblemView`), in the app's
// stylesheet: what happened, how long to wait, Retry and the way home. It is written here, not
// rendered by the app: the point of refusing is to spend no render, and a page without the
// app's scripts cannot meet a hydration it does not match. Retry is a link to the same address.
// Its words are in the reader's language, as the view's would have been.

export interface Refusal {
  retryAfterSeconds: number;
}

/** The styles (linked or inline) and icon of the built index.html, without its scripts. */
export function shellLinks(template: string): string {
  return (
    template.match(/<link\b[^>]*\brel="(?:stylesheet|icon)"[^>]*>|<style>[^]*?<\/style>/g) ?? []
  ).join('');
}

/** The whole page; `path` is the address to retry (the request's own path and query). */
export function refusalPage(
  links: string,
  path: string,
  { retryAfterSeconds }: Refusal,
  locale: CatalogLocale,
): string {
  const { i18n } = translationsFor(locale);
  const title = i18n._('refusal.title');
  const name = i18n._('app.name');
  const wait = formatsFor(locale).formatWait(retryAfterSeconds);
  return `<!doctype html>
<html lang="${locale}" dir="${directionOf(locale)}">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="color-scheme" content="light dark" />
    <meta name="robots" content="noindex" />
    <title>${escapeHtml(i18n._('title.withSite', { title }))}</title>
    ${links}
  </head>
  <body>
    <div class="flex min-h-dvh flex-col">
      <header class="border-b border-zinc-200 dark:border-zinc-800">
        <div class="mx-auto flex h-14 max-w-5xl items-center px-3 sm:px-6">
          <a href="/" class="flex items-center gap-2 rounded font-semibold text-zinc-900 dark:text-zinc-50"><img src="/favicon.svg" alt="" width="24" height="24" class="size-6" />${escapeHtml(name)}</a>
        </div>
      </header>
      <main id="main" class="mx-auto w-full max-w-5xl flex-1 px-3 pb-16 sm:px-6">
        <section role="alert" class="mx-auto my-10 max-w-xl rounded-xl border border-zinc-300 p-6 text-center dark:border-zinc-700">
          <h1 class="text-xl font-semibold text-zinc-900 dark:text-zinc-50">${escapeHtml(title)}</h1>
          <p class="mt-2 text-zinc-700 break-words dark:text-zinc-300">${escapeHtml(i18n._('refusal.detail'))}</p>
          <div class="mt-4 flex flex-col items-center gap-3">
            <p role="timer" aria-live="off" class="text-sm text-zinc-700 dark:text-zinc-300">${escapeHtml(i18n._('refusal.tryAgainIn', { wait }))}</p>
            <div class="flex flex-wrap justify-center gap-3">
              <a href="${escapeHtml(path)}" class="inline-flex items-center justify-center rounded-md font-semibold bg-blue-700 text-white hover:bg-blue-800 dark:bg-blue-500 dark:text-zinc-950 dark:hover:bg-blue-400 px-4 py-2 text-sm">${escapeHtml(i18n._('refusal.retry'))}</a>
              <a href="/" class="text-blue-700 hover:underline dark:text-blue-400 rounded-md px-4 py-2 text-sm font-semibold underline-offset-4">${escapeHtml(i18n._('refusal.home'))}</a>
            </div>
          </div>
        </section>
      </main>
    </div>
  </body>
</html>
`;
}
