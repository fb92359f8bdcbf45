import { etagOf, type Representation } from './http/representation.ts';
import { initialPageScript, injectInitialPage } from './initial-page.ts';
import type { StoredPage } from './page-source.ts';
import type { StaticSite } from './static-files.ts';
import { injectPreloads } from './view-preloads.ts';
import type { Lookup } from './validate-lookup.ts';

// The app's HTML as sent for a path: the build's index.html with modulepreload links for the
// path's view and, for a deep link whose first page is at hand, that page inside. Each
// variant is rendered once and kept in one cache, keyed by the page inside (or none) and the
// links; its compressed copies are made on first demand and kept with it.
//
// Variants without a page are a handful (one per view) and live as long as the server.
// Variants with a page are keyed weakly by the cached page, so they go when it leaves the
// page cache, and a newer copy of the page gets HTML of its own.

export interface AppHtml {
  /** index.html for the view at `pathname`, with `initial` inside when given. */
  render(pathname: string, initial?: { lookup: Lookup; page: StoredPage }): Representation;
}

/** The key of the variants without a page. */
const NO_PAGE = {};

export function createAppHtml(site: Pick<StaticSite, 'index' | 'preloads'>): AppHtml {
  const template = site.index.body.toString('utf8');
  const rendered = new WeakMap<StoredPage | typeof NO_PAGE, Map<string, Representation>>();

  return {
    render(pathname, initial) {
      // `/playlist/ID` and `/watch?list=ID` share a page but not their views' code.
      const links = site.preloads.linksFor(pathname, initial !== undefined);
      const key = initial?.page ?? NO_PAGE;
      let byLinks = rendered.get(key);
      if (byLinks === undefined) {
        byLinks = new Map();
        rendered.set(key, byLinks);
      }
      let html = byLinks.get(links);
      if (html === undefined) {
        let text = injectPreloads(template, links);
        if (initial !== undefined)
          text = injectInitialPage(text, initialPageScript(initial.lookup, initial.page.body));
        const body = Buffer.from(text);
        html = { body, etag: etagOf(body), encoded: {} };
        byLinks.set(links, html);
      }
      return html;
    },
  };
}
