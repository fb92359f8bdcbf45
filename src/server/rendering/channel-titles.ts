import { LRUCache } from 'lru-cache';
import type { PlaylistPage } from '../../shared/catalogue-schema.ts';
import type { EndpointName } from '../../shared/endpoints.ts';
import { CHANNEL_ID_PATTERN } from '../../shared/id-patterns.ts';
import type { AnyPage } from '../upstream/client.ts';

// Channel names, as far as the explorer has seen them. No lookup answers "what is channel X
// called": channel-videos and channel-playlists pages carry no name (spec §3.2, §3.3). But every
// playlist page names channels: its `info` the owner (spec §3.1), each item the video's own
// channel. So the page source tells this index about every page it gets from the upstream, and
// a channel's link preview (and its server-rendered header) can say its name instead of its ID
// once any playlist naming it has passed through. Bounded by a count, least recently seen out:
// names are short and a count keeps the bound obvious.

export interface ChannelTitles {
  /** The channel's name as the upstream last gave it, or undefined when never seen. */
  get(channelId: string): string | undefined;
  /** Remembers a channel's name (an ID of the wrong shape or an empty name is ignored). */
  remember(channelId: string, title: string): void;
  /** Remembers the channels a page names; the page source's `onPage` hook. */
  learnFromPage(lookup: { endpoint: EndpointName }, page: AnyPage): void;
  readonly size: number;
}

/** Longer names are not names; the bound also keeps the index's memory bounded. */
export const MAX_TITLE_LENGTH = 300;
export const MAX_CHANNEL_TITLES = 5000;

export function createChannelTitles(options: { maxEntries?: number } = {}): ChannelTitles {
  const { maxEntries = MAX_CHANNEL_TITLES } = options;
  // Both a read and a write count as seeing the channel: `get` and `set` make it the most recent.
  const titles = new LRUCache<string, string>({ max: maxEntries });

  const remember = (channelId: string, title: string) => {
    const name = title.trim();
    if (name === '' || name.length > MAX_TITLE_LENGTH || !CHANNEL_ID_PATTERN.test(channelId))
      return;
    titles.set(channelId, name);
  };

  return {
    get: (channelId) => titles.get(channelId),
    remember,
    learnFromPage(lookup, page) {
      if (lookup.endpoint !== 'playlist') return;
      const { info, items } = page as PlaylistPage;
      // Items first, the owner last: the playlist's own `info` is the better word on its owner.
      let previous: string | undefined;
      for (const item of items) {
        // A playlist is mostly one channel's videos: skip the repeats.
        if (item.channelId === previous) continue;
        previous = item.channelId;
        remember(item.channelId, item.channelTitle);
      }
      if (info) remember(info.channelId, info.channelTitle);
    },
    get size() {
      return titles.size;
    },
  };
}
