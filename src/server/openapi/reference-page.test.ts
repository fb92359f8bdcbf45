import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { problemCodes } from '../../shared/problem-codes.ts';
import { WHOLE_LIST_PATHS } from '../../shared/whole-list.ts';
import type { AppEnv } from '../http/app-env.ts';
import { CONTENT_SECURITY_POLICY } from '../http/security-headers.ts';
import { apiReference, openApiJson } from '../routes/openapi.ts';
import { openApiDocument } from './openapi-document.ts';
import { escapeHtml, operationsOf, renderReferencePage } from './reference-page.ts';

// The reference page lists every operation and every problem code of the document, escapes
// whatever text the document holds, and needs nothing the explorer's CSP forbids; the two
// routes send the document and the page with validators and the security headers.

const document = openApiDocument();
const page = renderReferencePage(document);

describe('the reference page', () => {
  it('lists every operation, with an anchor and a link from the contents', () => {
    const operations = operationsOf(document);
    // Every operation of every path: a GET, but for the jobs' POST and DELETE.
    const paths = (document as { paths: Record<string, Record<string, unknown>> }).paths;
    const declared = Object.entries(paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect(operations.map((o) => `${o.method} ${o.path}`)).toEqual(declared);
    expect(
      operations.filter((o) => o.method !== 'GET').map((o) => `${o.method} ${o.path}`),
    ).toEqual(['POST /api/jobs', 'DELETE /api/jobs/{job}']);
    for (const { method, path, id } of operations) {
      expect(page).toContain(`<section id="op-${id}">`);
      expect(page).toContain(`<a href="#op-${id}">`);
      expect(page).toContain(`<code>${escapeHtml(`${method} ${path}`)}</code>`);
    }
  });

  it('explains every problem code and every schema', () => {
    for (const code of problemCodes) expect(page).toContain(`<tr id="code-${code}">`);
    const schemas = Object.keys(
      (document as { components: { schemas: Record<string, unknown> } }).components.schemas,
    );
    for (const name of schemas) expect(page).toContain(`<section id="schema-${name}">`);
    // References inside schemas lead to their component.
    expect(page).toContain('<a href="#schema-Thumbnail">#/components/schemas/Thumbnail</a>');
  });

  it('needs no script, no inline style and nothing from elsewhere', () => {
    expect(page).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(page).not.toMatch(/<script|<style|\sstyle=|\son[a-z]+=/i);
    // The icon and one stylesheet, from the explorer's own origin.
    expect(page.match(/<link[^>]*>/g)).toEqual([
      '<link rel="icon" href="/favicon.svg" type="image/svg+xml">',
      '<link rel="stylesheet" href="/api-reference.css">',
    ]);
    expect(page).not.toMatch(/\s(?:src|href)="(?:https?:)?\/\//i);
  });

  it('describes itself for search results and shared links', () => {
    const description = /<meta name="description" content="([^"]+)">/.exec(page)?.[1];
    expect(description).toMatch(/^Catalogue Explorer API .+: every operation of the HTTP API/);
  });

  it('escapes whatever the document says', () => {
    const evil = '<script>alert("x")</script>&\'';
    const hostile = {
      openapi: '3.1.1',
      info: { title: evil, version: evil, description: `${evil}\n\n- \`${evil}\`` },
      tags: [{ name: evil, description: evil }],
      paths: {
        [`/x/{${evil}}`]: {
          get: {
            operationId: evil,
            tags: [evil],
            summary: evil,
            description: evil,
            parameters: [
              {
                name: evil,
                in: 'path',
                required: true,
                description: evil,
                schema: { enum: [evil] },
              },
            ],
            responses: {
              '400': {
                description: evil,
                'x-problem-codes': [evil],
                headers: { [evil]: { description: evil } },
                content: { [evil]: { schema: { const: evil } } },
              },
            },
          },
        },
      },
      components: { schemas: { [evil]: { description: evil } } },
      'x-problem-codes': { [evil]: evil },
    };
    const html = renderReferencePage(hostile);
    expect(html).not.toContain('<script');
    expect(html).not.toMatch(/"x"|'\)/);
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&amp;&#39;');
    // Anchors hold only characters that need no escaping.
    for (const [, id] of html.matchAll(/\sid="([^"]*)"/g)) expect(id).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('marks up code spans and lists in descriptions, and nothing else', () => {
    const html = renderReferencePage({
      openapi: '3.1.1',
      info: {
        title: 'T',
        version: '1',
        description: 'A `b` c\n\n- one\n- `two`\n\n<b>not bold</b>',
      },
      paths: {},
    });
    expect(html).toContain('<p>A <code>b</code> c</p>');
    expect(html).toContain('<ul>\n<li>one</li>\n<li><code>two</code></li>\n</ul>');
    expect(html).toContain('<p>&lt;b&gt;not bold&lt;/b&gt;</p>');
  });
});

describe('the routes', () => {
  const app = new Hono<AppEnv>();
  app.use(async (c, next) => {
    c.set('log', { route: '' });
    await next();
  });
  app.get(
    WHOLE_LIST_PATHS.openapi,
    openApiJson(() => openApiDocument()),
  );
  app.get(
    WHOLE_LIST_PATHS.reference,
    apiReference(() => openApiDocument()),
  );

  it.each([
    [WHOLE_LIST_PATHS.openapi, /^application\/json/],
    [WHOLE_LIST_PATHS.reference, /^text\/html/],
  ])(
    '%s answers with a validator, the security headers, and 304 when current',
    async (path, type) => {
      const response = await app.request(path);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(type);
      expect(response.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      const etag = response.headers.get('etag');
      expect(etag).toMatch(/^"[^"]+"$/);
      await response.arrayBuffer();

      const again = await app.request(path, { headers: { 'If-None-Match': etag as string } });
      expect(again.status).toBe(304);
      expect(await again.text()).toBe('');

      const compressed = await app.request(path, { headers: { 'Accept-Encoding': 'gzip' } });
      expect(compressed.headers.get('content-encoding')).toBe('gzip');
    },
  );

  it('sends the document and the page built from it', async () => {
    expect(await (await app.request(WHOLE_LIST_PATHS.openapi)).json()).toEqual(document);
    expect(await (await app.request(WHOLE_LIST_PATHS.reference)).text()).toBe(page);
  });
});
