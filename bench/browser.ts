import { LIST_ROW_SELECTOR } from '../src/shared/app-render.ts';
import { chromium, type Browser } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_EXECUTABLE, HEADLESS_SHELL_EXECUTABLE } from '../e2e/chromium.ts';
import { withAllCores } from './processes.ts';

let executablePath = CHROMIUM_EXECUTABLE;

/**
 * For the smoke run, whose figures mean nothing: the headless shell the browser tests use runs
 * the same paths on less CPU. A measurement is the whole browser's, as a reader's is.
 */
export function useHeadlessShell(): void {
  executablePath = HEADLESS_SHELL_EXECUTABLE;
}

// The tests' Chromium, with precise heap figures for bench 6, on every core (processes.ts).
export function launchChromium(): Promise<Browser> {
  return withAllCores(() =>
    chromium.launch({
      executablePath,
      args: [...CHROMIUM_ARGS, '--enable-precise-memory-info'],
    }),
  );
}

/** Rows of the app's virtual lists (and of the reference page): a feed's articles. */
export const ROW_SELECTOR = LIST_ROW_SELECTOR;

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
