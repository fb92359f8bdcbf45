// The entry index.html names: nothing but a wait for the first paint, then the app. The server
// has sent the view already rendered; compiling and running the app's scripts while the browser
// is still parsing and laying out that markup would only push its first paint back, so they are
// asked for once it is on screen. (A timer set in an animation frame fires after that frame is
// painted.) The view's own chunks wait as well, named in an inert template by the server
// (server/rendering/view-preloads.ts), and are all asked for at once with the app.

import { VIEW_PRELOADS_ELEMENT_ID } from '../shared/app-render.ts';
import './app.css';

await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
const preloads = document.getElementById(VIEW_PRELOADS_ELEMENT_ID);
if (preloads instanceof HTMLTemplateElement) document.head.append(preloads.content);
await import('./main.tsx');
