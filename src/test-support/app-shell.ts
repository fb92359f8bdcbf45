import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  APP_HEAD_PLACEHOLDER,
  APP_HTML_PLACEHOLDER,
  APP_STATE_ELEMENT_ID,
  APP_STATE_PLACEHOLDER,
  type RenderApp,
} from '../shared/app-render.ts';
import type { AppShell } from '../server/rendering/app-html.ts';

// The app's server entry as `npm run build` leaves it, for server tests that read rendered
// pages (npm test builds first; alone, such tests skip without a build).

const ENTRY = resolve('dist/.ssr/entry-server.js');

export const hasServerBuild = existsSync(ENTRY);

export async function builtRender(): Promise<RenderApp> {
  return ((await import(pathToFileURL(ENTRY).href)) as { render: RenderApp }).render;
}

/** index.html reduced to what the server fills in. */
export const TEST_TEMPLATE = `<!doctype html><html><head>${APP_HEAD_PLACEHOLDER}</head><body><div id="root">${APP_HTML_PLACEHOLDER}</div>${APP_STATE_PLACEHOLDER}</body></html>`;

export function testShell(render: RenderApp | null, template = TEST_TEMPLATE): AppShell {
  return { template: () => Promise.resolve(template), preloads: () => '', render, styleHashes: [] };
}

/** The dehydrated query cache a page carries, as the client reads it. */
export function stateOf(html: string): {
  queries: { queryKey: unknown[]; state: { data?: { pages: unknown[] }; status: string } }[];
} | null {
  const block = new RegExp(
    `<script type="application/json" id="${APP_STATE_ELEMENT_ID}">(.*?)</script>`,
    's',
  ).exec(html)?.[1];
  return block === undefined ? null : JSON.parse(block);
}
