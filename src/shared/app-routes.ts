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
