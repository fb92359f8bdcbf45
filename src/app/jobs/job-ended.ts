// Telling the reader a job ended while the page was open, wherever they are: the document's
// title says so (a tab in the background shows it) until they come back to the tab, and, when
// they asked for it on that job and the browser allows it, a system notification. Permission is
// asked for only on the reader's click (notify-button.tsx), never on load: browsers block, and
// readers resent, prompts nobody asked for.

/** The title as it was before the first notice, and the notice shown in its place. */
let marked: { base: string; shown: string } | null = null;

const BACK_EVENTS = ['focus', 'pointerdown', 'keydown'] as const;

function restore(): void {
  if (marked === null) return;
  // Only if it is still ours: a view the reader opened since has put its own title there.
  if (document.title === marked.shown) document.title = marked.base;
  marked = null;
  for (const type of BACK_EVENTS) window.removeEventListener(type, restore, true);
  document.removeEventListener('visibilitychange', onVisible);
}

function onVisible(): void {
  if (document.visibilityState === 'visible') restore();
}

/**
 * Puts `title(current title)` in the document's title until the reader is back: the tab shown
 * again, the window focused, or, if they are already looking, their next click or key.
 */
export function markTitle(title: (pageTitle: string) => string): void {
  // A second notice before the reader came back replaces the first, on the page's own title.
  const base = marked !== null && document.title === marked.shown ? marked.base : document.title;
  const shown = title(base);
  document.title = shown;
  if (marked === null) {
    for (const type of BACK_EVENTS) window.addEventListener(type, restore, true);
    document.addEventListener('visibilitychange', onVisible);
  }
  marked = { base, shown };
}

export type NotifyPermission = NotificationPermission | 'unsupported';

export function notifyPermission(): NotifyPermission {
  return typeof Notification === 'undefined' ? 'unsupported' : Notification.permission;
}

/** Asks the browser, on the reader's click; the answer. */
export async function askToNotify(): Promise<NotifyPermission> {
  if (typeof Notification === 'undefined') return 'unsupported';
  if (Notification.permission !== 'default') return Notification.permission;
  return Notification.requestPermission();
}

/** A system notification, when allowed; one per job (`tag`), however many tabs saw it end. */
export function notify(jobId: string, title: string, body: string): void {
  if (notifyPermission() !== 'granted') return;
  try {
    const notification = new Notification(title, { body, tag: jobId, icon: '/favicon.svg' });
    notification.onclick = () => {
      window.focus();
      notification.close();
    };
  } catch {
    // Some browsers (Android's) show notifications only through a service worker: the title
    // still says it.
  }
}
