import { describe, expect, it } from 'vitest';
import { prefersHtml } from './accept.ts';

describe('HTML or a problem document', () => {
  it('HTML for a browser navigating', () => {
    expect(
      prefersHtml(
        'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
      ),
    ).toBe(true);
    expect(prefersHtml('application/xhtml+xml')).toBe(true);
  });

  it('the problem document for a script, or anyone who prefers JSON or names nothing', () => {
    for (const header of [
      undefined,
      '',
      '*/*',
      'application/json',
      'application/problem+json, text/html;q=0.5',
      'text/html;q=0',
    ])
      expect(prefersHtml(header), String(header)).toBe(false);
  });
});
