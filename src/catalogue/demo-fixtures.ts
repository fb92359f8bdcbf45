import type { DemoEntry } from '../shared/explorer-api.ts';

// The demo catalogue's headline IDs: each is an edge case of paging (5,000 items, one full
// page, one item over a page, empty; a big channel, a channel with no playlists, and one too
// long to walk within an hour of quota). Tests, the benchmarks and the README name them, so
// they are fixed strings rather than generated ones. Everything else in the catalogue is
// generated.

export const FIXTURE_IDS = {
  playlist5000: 'PLcatalogueDemoPlaylist5000items00',
  playlist100: 'PLcatalogueDemoPlaylist0100items00',
  playlist101: 'PLcatalogueDemoPlaylist0101items00',
  playlistEmpty: 'PLcatalogueDemoPlaylist0000items00',
  bigChannel: 'UCcatalogueDemoChannel01',
  smallChannel: 'UCcatalogueDemoChannel02',
  hugeChannel: 'UCcatalogueDemoChannel03',
  playlist20000: 'PLcatalogueDemoPlaylist20000items0',
} as const;

export const FIXTURE_SIZES = {
  [FIXTURE_IDS.playlist5000]: 5000,
  [FIXTURE_IDS.playlist100]: 100,
  [FIXTURE_IDS.playlist101]: 101,
  [FIXTURE_IDS.playlistEmpty]: 0,
} as const;

export const BIG_CHANNEL_VIDEOS = 10_000;
export const BIG_CHANNEL_PLAYLISTS = 250;
export const SMALL_CHANNEL_VIDEOS = 45;
/**
 * Enough pages (spec §4.2) that a whole-list job over it needs more lookups than an hour's
 * quota, so it is made page by page from the video's index (huge-channel.ts), never stored.
 */
export const HUGE_CHANNEL_VIDEOS = 300_000;
/**
 * Four times a platform playlist's maximum (spec §3.1 says 5,000), on purpose: the app must not
 * lean on that maximum, and a list this long is taller than some browsers can lay out. Its items
 * are the huge channel's first videos, made on demand the same way.
 */
export const LONG_PLAYLIST_ITEMS = 20_000;
export const HUGE_CHANNEL_TITLE = 'Endless Archive';

export const DEMO_ENTRIES: DemoEntry[] = [
  {
    kind: 'playlist',
    id: FIXTURE_IDS.playlist5000,
    title: 'Every talk, 2010–2026',
    description: 'A playlist of 5,000 videos: the platform’s maximum.',
  },
  {
    kind: 'playlist',
    id: FIXTURE_IDS.playlist101,
    title: 'Field recordings',
    description: '101 videos: one item over a page boundary.',
  },
  {
    kind: 'playlist',
    id: FIXTURE_IDS.playlist100,
    title: 'One hundred short films',
    description: 'Exactly 100 videos: a single full page.',
  },
  {
    kind: 'playlist',
    id: FIXTURE_IDS.playlistEmpty,
    title: 'Watch later (empty)',
    description: 'An empty playlist.',
  },
  {
    kind: 'channel',
    id: FIXTURE_IDS.bigChannel,
    title: 'Catalogue Demo Studios',
    description: 'A channel with 10,000 videos and 250 playlists.',
  },
  {
    kind: 'channel',
    id: FIXTURE_IDS.smallChannel,
    title: 'Tiny Workshop',
    description: 'A channel with 45 videos and no playlists.',
  },
  {
    kind: 'channel',
    id: FIXTURE_IDS.hugeChannel,
    title: HUGE_CHANNEL_TITLE,
    description: 'A channel with 300,000 videos: 10,000 pages, more than an hour of quota.',
  },
  {
    kind: 'playlist',
    id: FIXTURE_IDS.playlist20000,
    title: 'The archive’s first 20,000',
    description: '20,000 videos: four times the platform’s maximum, for lists of any length.',
  },
];
