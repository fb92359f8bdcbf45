import { describe, expect, it } from 'vitest';
import { isPersonRequest } from './person-request.ts';

// Who warming is for: headers as Chromium, Firefox and Safari send them for a tab's navigation
// and for the app's own fetch, against what link unfurlers, crawlers, prefetches and scripts send.

const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36';
const NAVIGATION = {
  'user-agent': CHROME,
  'sec-fetch-dest': 'document',
  'sec-fetch-mode': 'navigate',
  'sec-fetch-site': 'none',
  'sec-fetch-user': '?1',
};
const APP_FETCH = {
  'user-agent': CHROME,
  'sec-fetch-dest': 'empty',
  'sec-fetch-mode': 'cors',
  'sec-fetch-site': 'same-origin',
};

describe('a person reading', () => {
  it("is a browser tab navigating to a view, or the app's own request for a page", () => {
    expect(isPersonRequest('GET', NAVIGATION, 'view')).toBe(true);
    // A link followed from another site, or within ours, is a navigation all the same.
    expect(isPersonRequest('GET', { ...NAVIGATION, 'sec-fetch-site': 'cross-site' }, 'view')).toBe(
      true,
    );
    expect(isPersonRequest('GET', APP_FETCH, 'lookup')).toBe(true);
    // Headless Chromium, as the tests and benchmarks drive it, is a browser.
    const headless = CHROME.replace('Chrome/', 'HeadlessChrome/');
    expect(isPersonRequest('GET', { ...APP_FETCH, 'user-agent': headless }, 'lookup')).toBe(true);
  });

  it.each([
    ['a HEAD', 'HEAD', NAVIGATION, 'view'],
    [
      'a link unfurler (no Fetch Metadata)',
      'GET',
      { 'user-agent': 'Slackbot-LinkExpanding 1.0' },
      'view',
    ],
    ['curl', 'GET', { 'user-agent': 'curl/8.5.0', accept: '*/*' }, 'view'],
    ["Node's fetch (Sec-Fetch-Mode alone)", 'GET', { 'sec-fetch-mode': 'cors' }, 'lookup'],
    [
      'a crawler in a headless browser',
      'GET',
      { ...NAVIGATION, 'user-agent': `${CHROME} (compatible; Googlebot/2.1)` },
      'view',
    ],
    [
      'a Lighthouse audit',
      'GET',
      { ...NAVIGATION, 'user-agent': `${CHROME} Chrome-Lighthouse` },
      'view',
    ],
    ['a prerender', 'GET', { ...NAVIGATION, 'sec-purpose': 'prefetch;prerender' }, 'view'],
    ['a link prefetch', 'GET', { ...NAVIGATION, purpose: 'prefetch' }, 'view'],
    ['a frame', 'GET', { ...NAVIGATION, 'sec-fetch-dest': 'iframe' }, 'view'],
    ["another site's script", 'GET', { ...APP_FETCH, 'sec-fetch-site': 'cross-site' }, 'lookup'],
    ['a lookup opened as a page', 'GET', NAVIGATION, 'lookup'],
    ['a view fetched by a script', 'GET', APP_FETCH, 'view'],
  ] as const)('is not %s', (_name, method, headers, kind) => {
    expect(isPersonRequest(method, headers, kind)).toBe(false);
  });
});
