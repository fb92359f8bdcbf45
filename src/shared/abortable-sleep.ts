/**
 * Waits `ms`, or less if `signal` aborts: it then resolves at once, and the caller looks at
 * `signal.aborted`. For loops that wait between steps and must stop promptly, in the browser
 * and on the server alike.
 */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
