import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  APP_HEAD_PLACEHOLDER,
  APP_HTML_PLACEHOLDER,
  APP_STATE_PLACEHOLDER,
} from '../../shared/app-render.ts';
import { inlineStylesheets } from './inline-styles.ts';
import { IMMUTABLE, loadStaticSite, REVALIDATE, writeCompressedCopies } from './static-files.ts';

const built = existsSync(join('dist', 'index.html'));

describe('static files', () => {
  it('without a build, serves a page that says how to make one', () => {
    let warned = false;
    const site = loadStaticSite('/nonexistent/dist', { onMissingBuild: () => (warned = true) });
    expect(warned).toBe(true);
    expect(site.files.size).toBe(0);
    expect(site.index.body.toString()).toContain('npm run build');
    expect(site.index.body.toString()).toContain(APP_HEAD_PLACEHOLDER);
  });

  it('an HTML file with its styles written in is allowed them by hash, and no other', () => {
    const root = mkdtempSync(join(tmpdir(), 'static-files-'));
    try {
      const css = 'p{color:rebeccapurple}';
      const { template, hashes } = inlineStylesheets(
        '<link rel="stylesheet" href="/a.css">',
        () => css,
      );
      writeFileSync(join(root, 'saved.html'), `<!doctype html>${template}<p>hi</p>`);
      writeFileSync(join(root, 'plain.html'), '<!doctype html><p>hi</p>');
      const site = loadStaticSite(root);
      const policy = site.files.get('/saved.html')?.contentSecurityPolicy;
      expect(policy).toContain(`style-src 'self' ${hashes[0]!};`);
      expect(site.files.get('/plain.html')?.contentSecurityPolicy).toBeUndefined();
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('compressed copies are written beside the files, read with them, and never served alone', async () => {
    const root = mkdtempSync(join(tmpdir(), 'static-files-'));
    try {
      const script = Buffer.from(`export const words = ${JSON.stringify('word '.repeat(2_000))};`);
      writeFileSync(join(root, 'app.js'), script);
      writeFileSync(join(root, 'tiny.js'), 'export {};');
      expect(writeCompressedCopies(root)).toBe(2);
      expect(readdirSync(root).sort()).toEqual(['app.js', 'app.js.br', 'app.js.gz', 'tiny.js']);
      const site = loadStaticSite(root);
      const file = site.files.get('/app.js')!;
      // Read, not made: the copies are there before anything was compressed.
      expect(brotliDecompressSync(file.encoded.br!)).toEqual(script);
      expect(gunzipSync(file.encoded.gzip!)).toEqual(script);
      expect([...site.files.keys()].sort()).toEqual(['/app.js', '/tiny.js']);
      await site.ready;
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  // The CSP allows no inline script, and an inline style only by its hash (the server writes
  // the stylesheet in, inline-styles.ts): the build itself must need neither.
  it.skipIf(!built)(
    'the Vite build needs no inline script or style, and has the placeholders',
    async () => {
      const html = readFileSync(join('dist', 'index.html'), 'utf8');
      for (const tag of html.match(/<script\b[^>]*>/g) ?? [])
        expect(tag).toMatch(/\bsrc="\/assets\//);
      expect(html).not.toMatch(/<style\b/);
      expect(html).not.toMatch(/\sstyle=/);
      expect(html).not.toMatch(/\son[a-z]+=/);
      for (const placeholder of [APP_HEAD_PLACEHOLDER, APP_HTML_PLACEHOLDER, APP_STATE_PLACEHOLDER])
        expect(html).toContain(placeholder);

      const site = loadStaticSite('dist');
      const assets = [...site.files.keys()].filter((p) => p.startsWith('/assets/'));
      expect(assets.length).toBeGreaterThan(0);
      for (const path of assets) expect(site.files.get(path)?.cacheControl).toBe(IMMUTABLE);
      expect(site.index.cacheControl).toBe(REVALIDATE);
      const largest = assets
        .filter((p) => p.endsWith('.js'))
        .reduce((a, b) =>
          (site.files.get(a)?.body.length ?? 0) >= (site.files.get(b)?.body.length ?? 0) ? a : b,
        );
      // Made by the build: there at once, not after start-up.
      expect(site.files.get(largest)?.encoded.br).toBeDefined();
      await site.ready;
    },
  );

  // Maps are written for decoding reported stack traces, without the source text, and stay
  // on the server: no script points at one and none is served.
  it.skipIf(!built)('source maps are neither referenced, served, nor carry the sources', () => {
    const site = loadStaticSite('dist');
    expect([...site.files.keys()].filter((p) => p.endsWith('.map'))).toEqual([]);
    for (const [path, file] of site.files) {
      if (path.endsWith('.js')) expect(file.body.toString()).not.toContain('sourceMappingURL');
    }
    const maps = readdirSync(join('dist', 'assets')).filter((name) => name.endsWith('.map'));
    expect(maps.length).toBeGreaterThan(0);
    for (const name of maps) {
      const map = JSON.parse(readFileSync(join('dist', 'assets', name), 'utf8')) as {
        sourcesContent?: (string | null)[];
      };
      expect((map.sourcesContent ?? []).filter((text) => text)).toEqual([]);
    }
  });
});
