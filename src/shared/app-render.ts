import type { Messages } from '@lingui/core';
import type { EndpointName } from './endpoints.ts';
import type { CatalogLocale } from './locales.ts';
import type { Problem } from './problem.ts';

// The contract between the explorer server and the app's server-side entry
// (src/app/entry-server.tsx): the server fetches a view's first page, the app renders the view
// as it would show it first, and the server puts the markup and the query cache that produced
// it into index.html, where the client picks both up and hydrates.

/** Where index.html takes the link preview tags, the rendered view and the query cache. */
export const APP_HEAD_PLACEHOLDER = '<!--app-head-->';
export const APP_HTML_PLACEHOLDER = '<!--app-html-->';
export const APP_STATE_PLACEHOLDER = '<!--app-state-->';
/** The JSON data block holding the dehydrated query cache (a data block, so the CSP allows it). */
export const APP_STATE_ELEMENT_ID = 'app-state';

/**
 * The `<template>` holding the modulepreload links of a view's code: inert until the entry
 * script, once the page is painted, puts them in the head (src/app/boot.ts).
 */
export const VIEW_PRELOADS_ELEMENT_ID = 'view-preloads';

/**
 * The screen a page is rendered for, as the request tells it (server/http/screen-class.ts): a
 * phone's (`narrow`) or any other (`wide`). Only how many rows the server renders depends on it.
 */
export type ScreenClass = 'narrow' | 'wide';

/**
 * Rows of a list the server renders (the query cache still carries the whole first page): a few
 * screens' worth, enough for a reader who scrolls while the scripts arrive, and fewer on a phone.
 * Not the whole first page: every row's markup is parsed, styled, laid out and hydrated on the
 * main thread, and on a phone a desktop's rows would cost as much as the app's whole start, for
 * rows nobody reaches before the app takes over.
 */
export const SERVER_RENDERED_ROWS: Readonly<Record<ScreenClass, number>> = {
  narrow: 16,
  wide: 40,
};

/**
 * Where the rendered query cache says which screen the server rendered for: the client renders
 * the same rows when it hydrates, whatever its own screen turns out to be.
 */
export const screenClassKey = ['server-screen-class'] as const;

/** The first page of the list a URL shows, as the server got it: the page, or a definite "no". */
export type FirstPage =
  | { endpoint: EndpointName; id: string; page: unknown }
  | { endpoint: EndpointName; id: string; problem: Problem };

export interface RenderRequest {
  /** Path and query string of the request. */
  url: string;
  /** Absent when the view has no list, or its first page was not at hand in time. */
  first?: FirstPage;
  /** The name of the channel a channel URL shows, when the server has seen it. */
  channelTitle?: string;
  /** The language to render in, and its compiled catalog (shared/i18n/catalog-files.ts). */
  locale: CatalogLocale;
  messages: Messages;
  screen: ScreenClass;
}

/** Where the rendered query cache keeps a channel's name that the server knew. */
export const channelTitleKey = (channelId: string) => ['channel-title', channelId] as const;

export interface RenderedApp {
  /**
   * Elements the view asks for in <head> (preloads), for the server to put there. The view's
   * <title> is not among them: the server writes the title with the link preview.
   */
  head: string;
  /** The markup inside `#root`. */
  html: string;
  /** The query cache after rendering, dehydrated (TanStack Query's format), for the client. */
  state: unknown;
}

export type RenderApp = (request: RenderRequest) => Promise<RenderedApp>;

/** The server entry's module, as Vite's SSR build and dev server name it. */
export const SERVER_ENTRY_MODULE = 'src/app/entry-server.tsx';

/**
 * A row of an endless list, on the server's page and in the app alike: an article of the list's
 * feed, carrying its position (the WAI-ARIA feed pattern).
 */
export const LIST_ROW_SELECTOR = 'article[aria-posinset]';
