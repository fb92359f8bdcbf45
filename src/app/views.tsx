import { use, type ComponentType } from 'react';
import { viewsForPath, type AppView } from '../shared/app-routes.ts';

// Each view's code is a chunk of its own, loaded on demand: the initial JS stays small, since
// the schemas, the virtualizer and the views are not needed to show the frame. At boot the
// current view's chunk is awaited before the first render (main.tsx), and the server names
// it in the HTML (server/rendering/view-preloads.ts), so a deep link renders its rows in one pass.
//
// Not React.lazy: a lazy component suspends on its first render even when its module is
// already loaded, and React then throttles the reveal of the content it held back. A promise
// that carries its own settled status is read by `use` without suspending.

type TrackedPromise<T> = Promise<T> & {
  status?: 'pending' | 'fulfilled' | 'rejected';
  value?: T;
  reason?: unknown;
};

function chunk<T>(load: () => Promise<T>): () => TrackedPromise<T> {
  let current: TrackedPromise<T> | undefined;
  return () => {
    if (current === undefined) {
      const promise: TrackedPromise<T> = load();
      promise.status = 'pending';
      promise.then(
        (value) => {
          promise.status = 'fulfilled';
          promise.value = value;
        },
        (reason: unknown) => {
          promise.status = 'rejected';
          promise.reason = reason;
          // The view's error boundary offers a retry, which must download again.
          current = undefined;
        },
      );
      current = promise;
    }
    return current;
  };
}

const loadHome = chunk(() => import('./routes/home-route.tsx'));
const loadPlaylist = chunk(() => import('./routes/playlist-route.tsx'));
const loadChannel = chunk(() => import('./routes/channel-routes.tsx'));
const loadPlatformLink = chunk(() => import('./routes/platform-link-route.tsx'));
const loadEmbed = chunk(() => import('./routes/embed-route.tsx'));
const loadFollowing = chunk(() => import('./following/following-route.tsx'));
const loadJobs = chunk(() => import('./jobs/jobs-route.tsx'));

/** A route element for `pick(module)`, suspending only while the chunk downloads. */
function view<M, P extends object>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
): ComponentType<P> {
  return function View(props: P) {
    const Component = pick(use(load()));
    return <Component {...props} />;
  };
}

export const HomeRoute = view(loadHome, (m) => m.HomeRoute);
export const PlaylistRoute = view(loadPlaylist, (m) => m.PlaylistRoute);
export const ChannelRoute = view(loadChannel, (m) => m.ChannelRoute);
export const PlatformLinkRoute = view(loadPlatformLink, (m) => m.PlatformLinkRoute);
export const EmbedPlaylistRoute = view(loadEmbed, (m) => m.EmbedPlaylistRoute);
export const EmbedChannelRoute = view(loadEmbed, (m) => m.EmbedChannelRoute);
export const FollowingRoute = view(loadFollowing, (m) => m.FollowingRoute);
export const JobsRoute = view(loadJobs, (m) => m.JobsRoute);

const loaders: Record<AppView, () => Promise<unknown>> = {
  home: loadHome,
  playlist: loadPlaylist,
  channel: loadChannel,
  'platform-link': loadPlatformLink,
  embed: loadEmbed,
  following: loadFollowing,
  jobs: loadJobs,
};

/** Starts downloading the views a path needs; settles when they are in (or failed). */
export function preloadViewFor(pathname: string): Promise<unknown> {
  return Promise.allSettled(viewsForPath(pathname).map((v) => loaders[v]()));
}
