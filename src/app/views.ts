import { lazy } from 'react';

// Each view's code is a chunk of its own, loaded on demand (issue #4: small initial JS; the
// schemas, the virtualizer and the views are not needed to show the frame). `preloadViewFor`
// starts the current view's download at boot, in parallel with everything else.

const loadHome = () => import('./routes/home-route.tsx');
const loadPlaylist = () => import('./routes/playlist-route.tsx');
const loadChannel = () => import('./routes/channel-routes.tsx');
const loadPlatformLink = () => import('./routes/platform-link-route.tsx');

export const HomeRoute = lazy(() => loadHome().then((m) => ({ default: m.HomeRoute })));
export const PlaylistRoute = lazy(() => loadPlaylist().then((m) => ({ default: m.PlaylistRoute })));
export const ChannelLayout = lazy(() => loadChannel().then((m) => ({ default: m.ChannelLayout })));
export const ChannelVideosRoute = lazy(() =>
  loadChannel().then((m) => ({ default: m.ChannelVideosRoute })),
);
export const ChannelPlaylistsRoute = lazy(() =>
  loadChannel().then((m) => ({ default: m.ChannelPlaylistsRoute })),
);
export const PlatformLinkRoute = lazy(() =>
  loadPlatformLink().then((m) => ({ default: m.PlatformLinkRoute })),
);

export function preloadViewFor(pathname: string): void {
  const path = pathname.replace(/\/+$/, '') || '/';
  const load =
    path === '/'
      ? loadHome
      : path === '/playlist' || path === '/watch'
        ? loadPlatformLink
        : /^\/playlist\/[^/]+$/.test(path)
          ? loadPlaylist
          : /^\/channel\/[^/]+(\/(videos|playlists))?$/.test(path)
            ? loadChannel
            : null;
  // A failed download is retried by the view's own import, which shows the error boundary.
  load?.().catch(() => {});
}
