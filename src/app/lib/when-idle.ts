// Work the reader does not wait for (remembering what pages taught the app, in localStorage)
// runs when the main thread is idle, not in the task that commits a render: on a slow phone the
// hydrating commit is already the page's longest task. Within `timeout` it runs anyway, and a
// browser without requestIdleCallback (Safari) gets the next task instead.

export function whenIdle(work: () => void, timeout = 2000): void {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(work, { timeout });
  else setTimeout(work, 0);
}
