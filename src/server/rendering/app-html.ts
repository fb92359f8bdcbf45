import type { Logger } from 'pino';
import {
  APP_HEAD_PLACEHOLDER,
  APP_HTML_PLACEHOLDER,
  APP_STATE_ELEMENT_ID,
  APP_STATE_PLACEHOLDER,
  type FirstPage as RenderedFirstPage,
  type RenderApp,
} from '../../shared/app-render.ts';
import { requestedList } from '../../shared/app-routes.ts';
import { etagOf, type Representation } from '../http/representation.ts';
import { keptRenderCost, rightSized } from '../pages/memory-cost.ts';
import { dropBeside, keepBeside } from '../pages/response-cache.ts';
import type { ChannelTitles } from './channel-titles.ts';
import type { FirstPage, LinkPreviews } from './link-preview.ts';

// The HTML of an app URL: index.html with the link preview in <head>, the view rendered by the
// app's server entry inside `#root`, the query cache it was rendered from in a JSON data block,
// and modulepreload links for the view's code. Renders are kept: a page's variants as long as
// the cached page lives (keyed weakly by it, so a newer copy renders anew), the others (home,
// not-found, a list whose first page was not at hand) in a small LRU. The preview is part of
// the key, as it improves when the server learns more (a deep link's item, a channel's name).

export interface AppShell {
  /** index.html as built, or as Vite's dev server transforms it for `url`. */
  template(url: string): Promise<string>;
  /** `<link rel="modulepreload">` tags for the view at `pathname`. */
  preloads(pathname: string): string;
  /** The app's server entry; null without a server build (the client then renders alone). */
  render: RenderApp | null;
}

export interface AppHtmlRequest {
  /** The request's URL (path and query string are rendered; the origin is `origin`). */
  url: URL;
  /** The public origin, for absolute URLs in the link preview. */
  origin: string;
  first: FirstPage;
  /** The first page's problem when the answer was a definite "no" (for the not-found view). */
  problem?: Extract<RenderedFirstPage, { problem: unknown }>;
}

export interface AppHtml {
  render(request: AppHtmlRequest): Promise<Representation>;
}

const MAX_PAGELESS = 256;
const MAX_PER_PAGE = 16;

/** JSON inside a `<script type="application/json">`: no `<` at all, so nothing can end it early. */
function dataBlock(state: unknown): string {
  const json = JSON.stringify(state).replaceAll('<', '\\u003c');
  return `<script type="application/json" id="${APP_STATE_ELEMENT_ID}">${json}</script>`;
}

export function createAppHtml(
  shell: AppShell,
  previews: LinkPreviews,
  logger: Logger,
  channelTitles?: Pick<ChannelTitles, 'get'>,
): AppHtml {
  const byPage = new WeakMap<object, Map<string, Representation>>();
  const pageless = new Map<string, Representation>();

  const build = async (
    { url, first, problem }: AppHtmlRequest,
    preview: string,
  ): Promise<Representation> => {
    const path = `${url.pathname}${url.search}`;
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
        rendered = await shell.render({ url: path, first: firstForApp, channelTitle });
      } catch (error) {
        // The page still works: the client renders the view itself.
        logger.error({ err: error, path }, 'server rendering failed');
      }
    }
    const text = (await shell.template(path))
      .replace(APP_HEAD_PLACEHOLDER, () => preview + rendered.head)
      // After the entry's own tags: the view's code is needed only once the entry runs.
      .replace('</head>', () => `${shell.preloads(url.pathname)}</head>`)
      .replace(APP_HTML_PLACEHOLDER, () => rendered.html)
      .replace(APP_STATE_PLACEHOLDER, () =>
        rendered.state === null ? '' : dataBlock(rendered.state),
      );
    // A small Buffer.from is a view on a shared 64 KB slab: keep only the HTML's own bytes.
    const body = rightSized(Buffer.from(text));
    return { body, etag: etagOf(body), encoded: {} };
  };

  return {
    async render(request) {
      const preview = previews.headFor(request.url, request.origin, request.first);
      const key = `${request.url.pathname}${request.url.search}\n${preview}`;
      const page = request.first.kind === 'page' ? request.first.page : null;
      const variants = page ? (byPage.get(page) ?? new Map<string, Representation>()) : pageless;
      const known = variants.get(key);
      if (known) {
        // Most recently used last, so the oldest goes first.
        variants.delete(key);
        variants.set(key, known);
        return known;
      }
      const html = await build(request, preview);
      variants.set(key, html);
      // A page's renders live as long as the page: its cache entry carries their memory.
      if (page) keepBeside(html, page, keptRenderCost(html, key));
      const bound = page ? MAX_PER_PAGE : MAX_PAGELESS;
      if (variants.size > bound) {
        const oldest = variants.keys().next().value!;
        dropBeside(variants.get(oldest)!);
        variants.delete(oldest);
      }
      if (page) byPage.set(page, variants);
      return html;
    },
  };
}
