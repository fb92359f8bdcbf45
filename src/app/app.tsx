import { Route, Routes } from 'react-router';
import { RootLayout } from './routes/root-layout.tsx';
import { NotFoundRoute } from './routes/not-found-route.tsx';
import {
  ChannelLayout,
  ChannelPlaylistsRoute,
  ChannelVideosRoute,
  HomeRoute,
  PlatformLinkRoute,
  PlaylistRoute,
} from './views.tsx';

// The route table (issue #4); the server's copy of which paths exist is shared/app-routes.ts.

export function App() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route index element={<HomeRoute />} />
        {/* The platform's own URL forms, with our host. */}
        <Route path="playlist" element={<PlatformLinkRoute />} />
        <Route path="watch" element={<PlatformLinkRoute />} />
        <Route path="playlist/:id" element={<PlaylistRoute />} />
        <Route path="channel/:id" element={<ChannelLayout />}>
          <Route index element={<ChannelVideosRoute />} />
          <Route path="videos" element={<ChannelVideosRoute />} />
          <Route path="playlists" element={<ChannelPlaylistsRoute />} />
        </Route>
        <Route path="*" element={<NotFoundRoute />} />
      </Route>
    </Routes>
  );
}
