import { useQueryClient } from '@tanstack/react-query';
import { useSyncExternalStore } from 'react';
import { channelTitleKey } from '../../shared/app-render.ts';
import { z } from 'zod';
import type { PlaylistPage } from '../../shared/catalogue-schema.ts';
import { createLocalStore } from './local-store.ts';

// No endpoint describes a channel, but playlists and their items name their channel. The app
// remembers titles it has seen so a channel view can show a name instead of an ID.

const MAX_TITLES = 500;
const titlesSchema = z.record(z.string(), z.string());

const store = createLocalStore<Record<string, string>>(
  'catalogue-explorer:channel-titles',
  (raw) => titlesSchema.catch({}).parse(raw),
  {},
);

export function rememberChannelTitles(
  pairs: Iterable<readonly [channelId: string, title: string]>,
): void {
  store.set((current) => {
    let next = current;
    for (const [id, title] of pairs) {
      if (!id || !title || next[id] === title) continue;
      if (next === current) next = { ...current };
      delete next[id]; // re-insert last: the newest titles survive trimming
      next[id] = title;
    }
    if (next === current) return current;
    const ids = Object.keys(next);
    if (ids.length > MAX_TITLES) {
      for (const id of ids.slice(0, ids.length - MAX_TITLES)) delete next[id];
    }
    return next;
  });
}

export function rememberPlaylistChannels(pages: readonly PlaylistPage[]): void {
  // Items of one playlist mostly repeat a few channels: one pair per channel, the last seen.
  const pairs = new Map<string, string>();
  for (const page of pages) {
    if (page.info) pairs.set(page.info.channelId, page.info.channelTitle);
    for (const item of page.items) pairs.set(item.channelId, item.channelTitle);
  }
  rememberChannelTitles(pairs);
}

/** The channel's name: as this browser remembers it, else as the server knew it (rendered views). */
export function useChannelTitle(channelId: string): string | undefined {
  const titles = useSyncExternalStore(store.subscribe, store.get, store.initial);
  const fromServer = useQueryClient().getQueryData<string>(channelTitleKey(channelId));
  // Own keys only: `/channel/constructor` must not find Object.prototype's function.
  return (Object.hasOwn(titles, channelId) ? titles[channelId] : undefined) ?? fromServer;
}
