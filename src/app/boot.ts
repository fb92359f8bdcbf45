// The entry index.html names: nothing but a wait for the first paint, then the app. The server
// has sent the view already rendered; compiling and running the app's scripts while the browser
// is still parsing and laying out that markup would only push its first paint back, so they are
// asked for once it is on screen. (A timer set in an animation frame fires after that frame is
// painted.)

import './app.css';

await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
await import('./main.tsx');
