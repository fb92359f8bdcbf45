import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { VIEW_PRELOADS_ELEMENT_ID } from '../../shared/app-render.ts';
import { VIEW_MODULES, viewsForPath } from '../../shared/app-routes.ts';

// A deep link's view is a chunk the entry script asks for only once it runs, which costs a
// second round of downloads before the first row appears. The server knows the view from the
// path (shared/app-routes.ts), so the HTML names its chunks: `<link rel="modulepreload">` for
// the view and everything it imports, read from Vite's build manifest
// (dist/.vite/manifest.json). They sit in an inert `<template>`, which the entry script moves
// into the head once the page is painted: fetched before then, on a phone's network, the view's
// scripts would share the link with the document's images and push the first paint back.

const manifestSchema = z.record(
  z.string(),
  z.object({
    file: z.string(),
    imports: z.array(z.string()).optional(),
    isEntry: z.boolean().optional(),
  }),
);
type Manifest = z.infer<typeof manifestSchema>;

/** Every file `key` needs, itself first, in manifest order, without repeats. */
function filesOf(manifest: Manifest, key: string, seen: Set<string>, out: string[]): void {
  if (seen.has(key)) return;
  seen.add(key);
  const chunk = manifest[key];
  if (chunk === undefined) return;
  out.push(chunk.file);
  for (const imported of chunk.imports ?? []) filesOf(manifest, imported, seen, out);
}

export interface ViewPreloads {
  /**
   * The `<link rel="modulepreload">` tags a path's view needs beyond the entry's own, in their
   * `<template>`.
   */
  linksFor(pathname: string): string;
}

export function createViewPreloads(manifest: Manifest): ViewPreloads {
  // The entry's own files are already named by index.html.
  const entryList: string[] = [];
  const entrySeen = new Set<string>();
  for (const [key, chunk] of Object.entries(manifest))
    if (chunk.isEntry) filesOf(manifest, key, entrySeen, entryList);
  const entryFiles = new Set(entryList);
  const cache = new Map<string, string>();
  const render = (modules: string[]) => {
    const seen = new Set<string>();
    const files: string[] = [];
    for (const module of modules) filesOf(manifest, module, seen, files);
    // `crossorigin` as on Vite's own tags: a module script is fetched in CORS mode, and a
    // preload made in another mode would not be reused.
    const links = files
      .filter((file) => !entryFiles.has(file))
      .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
      .join('');
    return links === '' ? '' : `<template id="${VIEW_PRELOADS_ELEMENT_ID}">${links}</template>`;
  };
  return {
    linksFor(pathname) {
      const modules = viewsForPath(pathname).map((view) => VIEW_MODULES[view]);
      const key = modules.join(' ');
      let links = cache.get(key);
      if (links === undefined) {
        links = render(modules);
        cache.set(key, links);
      }
      return links;
    },
  };
}

/** The build's preloads; none without a manifest (no build, or `npm run dev`). */
export function readViewPreloads(distDir: string): ViewPreloads {
  const path = join(distDir, '.vite', 'manifest.json');
  if (!existsSync(path)) return { linksFor: () => '' };
  return createViewPreloads(manifestSchema.parse(JSON.parse(readFileSync(path, 'utf8'))));
}
