// Debian's Chromium (no browser download is possible here), started the same way by the
// browser tests, the screenshots and the benchmarks. Without the background-networking
// switches Chromium keeps trying to reach Google's hosts, which this machine refuses.

export const CHROMIUM_EXECUTABLE = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
