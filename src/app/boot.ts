// The entry index.html names: nothing but a wait for the first contentful paint, then the app.
// The server has sent the view already rendered; compiling and running the app's scripts while
// the browser is still parsing and laying out that markup would only push its first paint back,
// so they are asked for once it is on screen. The view's own chunks wait as well, named in an
// inert template by the server (server/rendering/view-preloads.ts), and are all asked for at
// once with the app, as is the catalog of the page's language.

import { VIEW_PRELOADS_ELEMENT_ID } from '../shared/app-render.ts';
import { loadPageCatalog } from './i18n/load-catalog.ts';
import './app.css';

await firstContentfulPaint();
const preloads = document.getElementById(VIEW_PRELOADS_ELEMENT_ID);
if (preloads instanceof HTMLTemplateElement) document.head.append(preloads.content);
// The page's messages come alongside the app's code, not after it.
void loadPageCatalog();
await import('./main.tsx');

/**
 * Resolves once the page's content has been painted: a frame may be produced before it (a
 * frame with nothing to show counts for requestAnimationFrame, not for the reader). A hidden
 * tab paints nothing until shown, so it does not wait.
 */
function firstContentfulPaint(): Promise<void> {
  return new Promise((resolve) => {
    const painted = () => performance.getEntriesByName('first-contentful-paint').length > 0;
    if (painted() || document.visibilityState === 'hidden') return resolve();
    const observer = new PerformanceObserver(() => {
      if (!painted()) return;
      observer.disconnect();
      resolve();
    });
    observer.observe({ type: 'paint' });
  });
}
