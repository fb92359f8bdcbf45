import { useSyncExternalStore } from 'react';
import { z } from 'zod';
import { createLocalStore } from './local-store.ts';

// The views a user opened recently, shown on the home page to get back to them quickly.

const MAX_RECENT = 8;

const recentViewSchema = z.object({
  kind: z.enum(['playlist', 'channel']),
  id: z.string(),
  title: z.string(),
  /** Explorer path to reopen the view, e.g. /playlist/PL… or /channel/UC…/playlists. */
  path: z.string().startsWith('/'),
  openedAt: z.number(),
});
export type RecentView = z.infer<typeof recentViewSchema>;

const store = createLocalStore<RecentView[]>(
  'catalogue-explorer:recent-views',
  (raw) => z.array(recentViewSchema).catch([]).parse(raw).slice(0, MAX_RECENT),
  [],
);

export function recordRecentView(view: Omit<RecentView, 'openedAt'>): void {
  store.set((current) => {
    const first = current[0];
    if (
      first &&
      first.kind === view.kind &&
      first.id === view.id &&
      first.title === view.title &&
      first.path === view.path
    ) {
      return current;
    }
    const others = current.filter((v) => !(v.kind === view.kind && v.id === view.id));
    return [{ ...view, openedAt: Date.now() }, ...others].slice(0, MAX_RECENT);
  });
}

export function clearRecentViews(): void {
  store.set(() => []);
}

export function useRecentViews(): RecentView[] {
  return useSyncExternalStore(store.subscribe, store.get, store.initial);
}
