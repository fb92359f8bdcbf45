import { existsSync } from 'node:fs';

// Debian's Chromium (no browser download is possible here), started the same way by the
// browser tests, the screenshots and the benchmarks. Without the background-networking
// switches Chromium keeps trying to reach Google's hosts, which this machine refuses.

export const CHROMIUM_EXECUTABLE = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The browser tests' Chromium: Debian's headless shell (package chromium-headless-shell), the
 * same engine without the desktop browser around it, which is what Playwright runs headless by
 * default. It draws a page with a good deal less CPU, and the suite is CPU-bound. It has no
 * notifications, so the journeys that need them run in the whole browser (playwright.config.ts).
 * Where it is not installed, the whole browser runs everything, only slower.
 */
export const HEADLESS_SHELL_EXECUTABLE =
  process.env.CHROMIUM_HEADLESS_SHELL_PATH ??
  (existsSync('/usr/bin/chromium-headless-shell')
    ? '/usr/bin/chromium-headless-shell'
    : CHROMIUM_EXECUTABLE);

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
