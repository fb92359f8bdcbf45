import { hash } from 'node:crypto';
import type { Logger } from 'pino';
import {
  APP_HEAD_PLACEHOLDER,
  APP_HTML_PLACEHOLDER,
  APP_STATE_ELEMENT_ID,
  APP_STATE_PLACEHOLDER,
  type FirstPage as RenderedFirstPage,
  type RenderApp,
  SERVER_RENDERED_ROWS,
  type ScreenClass,
} from '../../shared/app-render.ts';
import { requestedList } from '../../shared/app-routes.ts';
import { keptRenderCost, stringMapCost } from '../pages/memory-cost.ts';
import type { StoredPage } from '../pages/page-entry.ts';
import { dropBeside, keepBeside } from '../pages/response-cache.ts';
import type { ChannelTitles } from './channel-titles.ts';
import { renderHead, type FirstPage, type LinkPreviews } from './link-preview.ts';
import { refusalPage, shellLinks, type Refusal } from './refusal-page.ts';
import { contentSecurityPolicy, EMBED_FRAMING } from '../http/security-headers.ts';
import { JSON_LD_OPEN } from './structured-data.ts';
import { renderAddress, type RenderAddress } from './render-key.ts';
import { storeRender, type StoredRender } from './stored-render.ts';
import { translationsFor } from './translations.ts';
import { directionOf, type CatalogLocale } from '../../shared/locales.ts';

// The HTML of an app URL: index.html with the link preview in <head>, the view rendered by the
// app's server entry inside `#root`, the query cache it was rendered from in a JSON data block,
// and modulepreload links for the view's code. Renders are kept compactly (stored-render.ts)
// under a key of only what changes them (render-key.ts) and the link preview. A page's renders
// live as long as its cached page (keyed weakly by it); the others sit in a small LRU. A view of
// a failed first page is never kept: it says what failed and how long to wait at the moment it
// is asked for. Requests for a render on its way join it.

export interface AppShell {
  /** index.html as built, or as Vite's dev server transforms it for `url`. */
  template(url: string): Promise<string>;
  /** `<link rel="modulepreload">` tags for the view at `pathname`. */
  preloads(pathname: string): string;
  /** The app's server entry; null without a server build (the client then renders alone). */
  render: RenderApp | null;
  /** CSP hash-sources of the template's inline styles (inline-styles.ts). */
  styleHashes: readonly string[];
}

export interface AppHtmlRequest {
  /**
   * The request's URL: what of it the view depends on is rendered (render-key.ts); the origin
   * of the preview's absolute URLs is `origin`.
   */
  url: URL;
  /** The public origin, for absolute URLs in the link preview. */
  origin: string;
  /** The language of the page (http/request-locale.ts). */
  locale: CatalogLocale;
  /** The screen it is rendered for (http/screen-class.ts); wide when not said. */
  screen?: ScreenClass;
  first: FirstPage;
  /**
   * The first page's problem, when the answer was a definite "no" (the not-found view) or a
   * failure (the view's error, with Retry).
   */
  problem?: Extract<RenderedFirstPage, { problem: unknown }>;
}

/** A render kept or on its way; `ready` once it is made. */
export interface KeptRender {
  html: Promise<StoredRender>;
  ready: boolean;
}

export interface AppHtml {
  /**
   * The render for `request` when one is kept or on its way, at no cost: undefined when a
   * render would have to be made (and for a failed first page, whose view is never kept).
   */
  cached(request: AppHtmlRequest): KeptRender | undefined;
  /** The render for `request`: the kept one, the one on its way, else a new one (kept). */
  render(request: AppHtmlRequest): Promise<StoredRender>;
  /**
   * The page a browser gets in place of a render it may not have now, no render spent
   * (refusal-page.ts); `path` is the address to retry.
   */
  refusal(path: string, refusal: Refusal, locale: CatalogLocale): Promise<string>;
  /** The Content-Security-Policy of these pages: the template's inline styles allowed. */
  contentSecurityPolicy: string;
  /** The same for an embed, which other sites may frame. */
  embedContentSecurityPolicy: string;
}

/**
 * A request's path (and query) as a URL of `origin`. Not `new URL(path, base)`: a path that
 * begins with `//` would be read as another host (or, for `//` alone, as no URL at all).
 */
const pathUrl = (path: string, origin: string): URL => new URL(`${origin}${path}`);

/** Renders kept without a page to charge them to (a view whose first page failed, home). */
export const MAX_PAGELESS = 256;
const NOSCRIPT_REFRESH = '<noscript><meta http-equiv="refresh" content="2"></noscript>';
const MAX_PER_PAGE = 16;

/** JSON inside a `<script type="application/json">`: no `<` at all, so nothing can end it early. */
/** The preview's tags apart from its JSON-LD blocks (one a line, as renderHead writes them). */
function splitStructuredData(preview: string): { head: string; data: string } {
  const head: string[] = [];
  const data: string[] = [];
  for (const line of preview.split('\n')) (line.startsWith(JSON_LD_OPEN) ? data : head).push(line);
  return { head: head.join('\n'), data: data.join('') };
}

function dataBlock(state: unknown): string {
  const json = JSON.stringify(state).replaceAll('<', '\\u003c');
  return `<script type="application/json" id="${APP_STATE_ELEMENT_ID}">${json}</script>`;
}

interface Kept extends KeptRender {
  /** Once made: what is charged to the page's cache entry. */
  value?: StoredRender;
}

export function createAppHtml(
  shell: AppShell,
  previews: LinkPreviews,
  logger: Logger,
  channelTitles?: Pick<ChannelTitles, 'get'>,
): AppHtml {
  const byPage = new WeakMap<object, Map<string, Kept>>();
  const completePreviews = new WeakMap<object, Map<string, string>>();
  const pageless = new Map<string, Kept>();
  let links: Promise<string> | undefined;

  const build = async (
    { first, problem, locale, screen = 'wide' }: AppHtmlRequest,
    address: RenderAddress,
    preview: string,
  ): Promise<StoredRender> => {
    const { path } = address;
    const url = pathUrl(path, 'http://render');
    let rendered = { head: '', html: '', state: null as unknown };
    // A channel view shows the channel's name when the server has seen it (the preview does
    // too, so a render with the name is a variant of its own).
    const list = requestedList(url.pathname, url.searchParams);
    const channelTitle =
      list && list.endpoint !== 'playlist' ? channelTitles?.get(list.id) : undefined;
    if (shell.render) {
      const firstForApp: RenderedFirstPage | undefined =
        first.kind === 'page'
          ? { ...first.list, page: JSON.parse(first.page.body.toString('utf8')) as unknown }
          : problem;
      try {
        const { messages } = translationsFor(locale);
        rendered = await shell.render({
          url: path,
          first: firstForApp,
          channelTitle,
          locale,
          messages,
          screen,
        });
      } catch (error) {
        // The page still works: the client renders the view itself.
        logger.error({ err: error, path }, 'server rendering failed');
      }
    }
    // A list's view without its first page (still on its way) fills in once the app runs; a
    // browser without scripts asks again shortly, when the page is in the cache.
    const waiting = list !== null && first.kind === 'none' ? NOSCRIPT_REFRESH : '';
    const { head: tags, data: structured } = splitStructuredData(preview);
    const text = (await shell.template(path))
      // The document's language and direction: Arabic reads, and lays out, right to left.
      .replace(/<html\b[^>]*>/, () => `<html lang="${locale}" dir="${directionOf(locale)}">`)
      .replace(APP_HEAD_PLACEHOLDER, () => tags + rendered.head + waiting)
      // After the entry's own tags: the view's code is needed only once the entry runs.
      .replace('</head>', () => `${shell.preloads(url.pathname)}</head>`)
      .replace(APP_HTML_PLACEHOLDER, () => rendered.html)
      .replace(APP_STATE_PLACEHOLDER, () =>
        rendered.state === null ? '' : dataBlock(rendered.state),
      )
      // Structured data is for crawlers, which read the whole document: after the view, so
      // that its kilobytes never stand between a reader and the first paint.
      .replace('</body>', () => `${structured}</body>`);
    return storeRender(Buffer.from(text));
  };

  /** The preview's tags for what is rendered (they read the path, `index`, `v`). */
  const headOf = (request: AppHtmlRequest, address: RenderAddress) =>
    renderHead(
      previews.previewFor(pathUrl(address.path, request.url.origin), request.first, request.locale),
      request.origin,
      SERVER_RENDERED_ROWS[request.screen ?? 'wide'],
    );

  /**
   * The preview's tags, or only their hash when it is known: the hash keys a kept render, and
   * the tags themselves are needed only to make one. A page's complete previews (complete:
   * nothing the server learns later can change them) are known by their hash, kept beside the
   * page per view and origin, so that a kept render is answered without writing its tags again
   * (most of what such an answer would cost) and without holding them (tens of kilobytes with
   * a list's structured data).
   */
  const previewOf = (
    request: AppHtmlRequest,
    address: RenderAddress,
    page: StoredPage | null,
  ): { hash: string; head?: string } => {
    const memoKey = `${address.key}\n${request.origin}`;
    const memo = page && completePreviews.get(page);
    const known = memo?.get(memoKey);
    if (known !== undefined) return { hash: known };
    const preview = previews.previewFor(
      pathUrl(address.path, request.url.origin),
      request.first,
      request.locale,
    );
    const head = renderHead(
      preview,
      request.origin,
      SERVER_RENDERED_ROWS[request.screen ?? 'wide'],
    );
    const hashed = hash('sha1', head, 'base64url');
    if (page && preview.complete) {
      const kept = memo ?? new Map<string, string>();
      // As many as the page keeps renders: a flood of Host headers only churns these.
      if (kept.size >= MAX_PER_PAGE) kept.clear();
      kept.set(memoKey, hashed);
      completePreviews.set(page, kept);
      // Charged to the page's cache entry, as its renders are.
      keepBeside(kept, page, stringMapCost(kept));
    }
    return { hash: hashed, head };
  };

  /** Where a request's render is kept (null: never kept), and under which key. */
  const placeOf = (request: AppHtmlRequest) => {
    const address = renderAddress(request.url, request.locale, request.screen);
    const { first } = request;
    const page = first.kind === 'page' ? first.page : null;
    const preview = previewOf(request, address, page);
    const key = `${address.key}\n${preview.hash}`;
    const variants =
      first.kind === 'failed'
        ? null
        : page
          ? (byPage.get(page) ?? new Map<string, Kept>())
          : pageless;
    const head = () => preview.head ?? headOf(request, address);
    return { address, head, key, page, variants };
  };

  return {
    cached(request) {
      const { key, variants } = placeOf(request);
      const known = variants?.get(key);
      if (known === undefined) return undefined;
      // Most recently used last, so the oldest goes first.
      variants!.delete(key);
      variants!.set(key, known);
      return known;
    },

    render(request) {
      const { address, head, key, page, variants } = placeOf(request);
      if (variants === null) return build(request, address, head());
      const known = variants.get(key);
      if (known !== undefined) return known.html;
      const kept: Kept = { html: build(request, address, head()), ready: false };
      variants.set(key, kept);
      if (page) byPage.set(page, variants);
      if (variants.size > (page ? MAX_PER_PAGE : MAX_PAGELESS)) {
        const [oldest, dropped] = variants.entries().next().value!;
        variants.delete(oldest);
        if (dropped.value) dropBeside(dropped.value);
      }
      kept.html.then(
        (html) => {
          kept.ready = true;
          kept.value = html;
          // A page's renders live as long as the page: its cache entry carries their memory.
          if (page && variants.get(key) === kept) keepBeside(html, page, keptRenderCost(html, key));
        },
        () => {
          if (variants.get(key) === kept) variants.delete(key);
        },
      );
      return kept.html;
    },

    async refusal(path, refusal, locale) {
      links ??= shell.template('/').then(shellLinks);
      return refusalPage(await links, path, refusal, locale);
    },

    contentSecurityPolicy: contentSecurityPolicy(shell.styleHashes),
    embedContentSecurityPolicy: contentSecurityPolicy(
      shell.styleHashes,
      EMBED_FRAMING.frameAncestors,
    ),
  };
}
