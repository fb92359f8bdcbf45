import { describe, expect, it } from 'vitest';
import { createViewPreloads } from './view-preloads.ts';

// A manifest shaped like Vite's: the entry's own chunks are named by index.html already, so
// only what the view adds is preloaded, each file once.
const manifest = {
  'index.html': { file: 'assets/index-1.js', isEntry: true, imports: ['_react-1.js'] },
  '_react-1.js': { file: 'assets/react-1.js' },
  '_zod-1.js': { file: 'assets/zod-1.js' },
  '_queries-1.js': { file: 'assets/queries-1.js', imports: ['_react-1.js', '_zod-1.js'] },
  'src/app/routes/playlist-route.tsx': {
    file: 'assets/playlist-route-1.js',
    imports: ['_queries-1.js', '_react-1.js'],
  },
  'src/app/routes/platform-link-route.tsx': { file: 'assets/platform-link-1.js' },
  'src/app/routes/channel-routes.tsx': { file: 'assets/channel-1.js', imports: ['_zod-1.js'] },
};

const hrefs = (links: string) => [...links.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);

describe('view preloads (a deep link names its view’s chunks in the HTML)', () => {
  const preloads = createViewPreloads(manifest);

  it('names the view and its imports beyond the entry’s, each once', () => {
    expect(hrefs(preloads.linksFor('/playlist/PLx'))).toEqual([
      '/assets/playlist-route-1.js',
      '/assets/queries-1.js',
      '/assets/zod-1.js',
    ]);
    expect(preloads.linksFor('/channel/UCx/playlists')).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/channel-1.js">',
    );
  });

  it('names both views for the platform’s own links', () => {
    expect(hrefs(preloads.linksFor('/watch'))).toEqual([
      '/assets/platform-link-1.js',
      '/assets/playlist-route-1.js',
      '/assets/queries-1.js',
      '/assets/zod-1.js',
    ]);
  });

  it('keeps them in an inert template, for the entry to put in the head once the page is painted', () => {
    expect(preloads.linksFor('/playlist/PLx')).toMatch(
      /^<template id="view-preloads">(<link rel="modulepreload" crossorigin href="[^"]+">)+<\/template>$/,
    );
  });

  it('names nothing for paths that are no view', () => {
    expect(preloads.linksFor('/nope/at/all')).toBe('');
  });
});
