// The app's routes (issue #4), shared so that the server answers 200 with the app's HTML for
// these and 404 (still the app's HTML, which shows a not-found page) for anything else.

export const APP_ROUTE_PATTERNS: readonly RegExp[] = [
  /^\/$/,
  /^\/playlist\/?$/, // the platform's own /playlist?list=ID
  /^\/watch\/?$/, // the platform's own /watch?v=VIDEO&list=ID&index=N
  /^\/playlist\/[^/]+\/?$/,
  /^\/channel\/[^/]+\/?$/,
  /^\/channel\/[^/]+\/(videos|playlists)\/?$/,
];

export function isAppRoute(pathname: string): boolean {
  return APP_ROUTE_PATTERNS.some((pattern) => pattern.test(pathname));
}

/** The app's views, each a code chunk of its own (src/app/views.ts). */
export type AppView = 'home' | 'playlist' | 'channel' | 'platform-link';

/** Each view's module, as Vite names it in its build manifest (the server preloads it). */
export const VIEW_MODULES: Record<AppView, string> = {
  home: 'src/app/routes/home-route.tsx',
  playlist: 'src/app/routes/playlist-route.tsx',
  channel: 'src/app/routes/channel-routes.tsx',
  'platform-link': 'src/app/routes/platform-link-route.tsx',
};

/**
 * The views a path needs, in the order they show: the platform's own URL forms are read by
 * a small view that then opens the playlist.
 */
export function viewsForPath(pathname: string): AppView[] {
  const path = pathname.replace(/\/+$/, '') || '/';
  if (path === '/') return ['home'];
  if (path === '/playlist' || path === '/watch') return ['platform-link', 'playlist'];
  if (/^\/playlist\/[^/]+$/.test(path)) return ['playlist'];
  if (/^\/channel\/[^/]+(\/(videos|playlists))?$/.test(path)) return ['channel'];
  return [];
}
