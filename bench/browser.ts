import { chromium, type Browser } from '@playwright/test';

// Debian's Chromium, driven by Playwright (no browser download is possible here).
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--enable-precise-memory-info',
    ],
  });
}

/** Rows of the app's virtual lists (and of the reference page): list items with a position. */
export const ROW_SELECTOR = 'li[aria-posinset]';

/**
 * Injected before any page script: records when the first row enters the DOM, so that the
 * app and the server-rendered reference are timed by the same clock (navigation start).
 */
export const FIRST_ROW_PROBE = `
  (() => {
    const seen = () => {
      if (window.__firstRow === undefined && document.querySelector(${JSON.stringify(ROW_SELECTOR)})) {
        window.__firstRow = performance.now();
        observer.disconnect();
      }
    };
    const observer = new MutationObserver(seen);
    observer.observe(document, { childList: true, subtree: true });
  })();
`;
