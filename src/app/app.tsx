import type { ReactNode } from 'react';
import { Route, Routes } from 'react-router';
import { ROUTE_PATTERNS, type RouteName } from '../shared/app-routes.ts';
import { NotFoundRoute } from './routes/not-found-route.tsx';
import { RootLayout } from './routes/root-layout.tsx';
import { EmbedLayout } from './routes/embed-layout.tsx';
import {
  ChannelRoute,
  EmbedChannelRoute,
  EmbedPlaylistRoute,
  FollowingRoute,
  HomeRoute,
  JobsRoute,
  PlatformLinkRoute,
  PlaylistRoute,
} from './views.tsx';

// The route table: the paths are shared/app-routes.ts's, which the server reads too (it answers
// 404 for the rest), and every route names the view it shows.

const VIEWS: Record<RouteName, ReactNode> = {
  home: <HomeRoute />,
  following: <FollowingRoute />,
  jobs: <JobsRoute />,
  // The platform's own URL forms, with our host.
  platformPlaylist: <PlatformLinkRoute />,
  platformWatch: <PlatformLinkRoute />,
  playlist: <PlaylistRoute />,
  channel: <ChannelRoute tab="videos" />,
  channelVideos: <ChannelRoute tab="videos" />,
  channelPlaylists: <ChannelRoute tab="playlists" />,
  // Lists for other sites' frames, in a frame of their own (routes/embed-layout.tsx).
  embedPlaylist: <EmbedPlaylistRoute />,
  embedChannel: <EmbedChannelRoute tab="videos" />,
  embedChannelPlaylists: <EmbedChannelRoute tab="playlists" />,
};

const ROUTE_NAMES = Object.keys(ROUTE_PATTERNS) as RouteName[];
const isEmbed = (name: RouteName) => name.startsWith('embed');

export function App() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        {ROUTE_NAMES.filter((name) => !isEmbed(name)).map((name) => (
          <Route key={name} path={ROUTE_PATTERNS[name]} element={VIEWS[name]} />
        ))}
        <Route path="*" element={<NotFoundRoute />} />
      </Route>
      <Route element={<EmbedLayout />}>
        {ROUTE_NAMES.filter(isEmbed).map((name) => (
          <Route key={name} path={ROUTE_PATTERNS[name]} element={VIEWS[name]} />
        ))}
      </Route>
    </Routes>
  );
}
