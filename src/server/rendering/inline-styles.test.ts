import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { inlineStylesheets } from './inline-styles.ts';

const CSS = 'body{color:red}';
const files = new Map([['/assets/index-1.css', CSS]]);
const read = (path: string) => files.get(path);

describe('inlining the stylesheet', () => {
  it('writes this origin’s stylesheet into the page, with the hash the CSP names', () => {
    const { template, hashes } = inlineStylesheets(
      '<head><link rel="stylesheet" crossorigin href="/assets/index-1.css"><link rel="icon" href="/favicon.svg"></head>',
      read,
    );
    expect(template).toBe(
      `<head><style>${CSS}</style><link rel="icon" href="/favicon.svg"></head>`,
    );
    const digest = createHash('sha256').update(CSS).digest('base64');
    expect(hashes).toEqual([`'sha256-${digest}'`]);
  });

  it('leaves a link it cannot inline: missing, elsewhere, or able to end the element', () => {
    files.set('/assets/evil.css', 'a{}</style><script>alert(1)</script>');
    const links = [
      '<link rel="stylesheet" href="/assets/gone.css">',
      '<link rel="stylesheet" href="//cdn.example/a.css">',
      '<link rel="stylesheet" href="/assets/evil.css">',
    ].join('');
    expect(inlineStylesheets(links, read)).toEqual({ template: links, hashes: [] });
  });
});
