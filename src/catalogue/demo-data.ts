import {
  BIG_CHANNEL_PLAYLISTS,
  BIG_CHANNEL_VIDEOS,
  FIXTURE_IDS,
  FIXTURE_SIZES,
  SMALL_CHANNEL_VIDEOS,
} from './demo-fixtures.ts';
import { channelName, description, playlistTitle, videoTitle } from './demo-text.ts';
import { createRandom, randomIdBody, type Random } from './random.ts';

// The demo catalogue, generated from a fixed seed so that every machine, test and screenshot
// sees the same records. Timestamps are fixed offsets before DATA_EPOCH; the service turns
// them into "3 years ago" at request time, as the real service does (spec §3.4).

export const DEMO_SEED = 20261101;
/** Bump when the generator changes, so that an old database file is rebuilt. */
export const DEMO_DATA_VERSION = 3;
/** Generated timestamps lie before this instant (unix seconds). */
export const DATA_EPOCH = Date.UTC(2026, 10, 1) / 1000;

export interface ChannelRecord {
  id: string;
  title: string;
}

export interface VideoRecord {
  id: string;
  channelId: string;
  title: string;
  description: string;
  /** Seconds; null for live streams, as the real provider sends them (spec §3.4). */
  duration: number | null;
  viewCount: number;
  publishedAt: number;
  /** False for the few videos whose published date the real service cannot give (spec §3.2). */
  publishedKnown: boolean;
}

export interface PlaylistRecord {
  id: string;
  channelId: string;
  title: string;
  description: string;
  viewCount: number;
  updatedAt: number;
  /** The order of the playlist on its channel's playlists tab. */
  ordinal: number;
  videoIds: string[];
}

export interface DemoCatalogue {
  channels: ChannelRecord[];
  videos: VideoRecord[];
  playlists: PlaylistRecord[];
}

const GENERATED_CHANNELS = 320;
const YEAR = 365 * 24 * 3600;

/** Seconds before DATA_EPOCH, spread from minutes to fifteen years, most of them recent. */
function age(random: Random): number {
  return Math.round(Math.exp(random.next() * Math.log((15 * YEAR) / 600)) * 600);
}

/** View counts follow a heavy tail: most videos have hundreds, a few have hundreds of millions. */
export function randomViewCount(random: Random): number {
  return Math.min(2_500_000_000, Math.round(Math.exp(7 + random.normal() * 2.6)));
}

/** Shorts, ordinary videos, long streams and a few live streams (null). */
export function randomDuration(random: Random): number | null {
  const roll = random.next();
  if (roll < 0.01) return null;
  if (roll < 0.12) return random.int(5, 59);
  if (roll < 0.8) return random.int(60, 25 * 60);
  if (roll < 0.96) return random.int(25 * 60, 90 * 60);
  return random.int(90 * 60, 10 * 3600);
}

export function generateDemoCatalogue(seed = DEMO_SEED): DemoCatalogue {
  const random = createRandom(seed);
  const channels: ChannelRecord[] = [];
  const videos: VideoRecord[] = [];
  const playlists: PlaylistRecord[] = [];
  const videosByChannel = new Map<string, VideoRecord[]>();
  const usedIds = new Set<string>(Object.values(FIXTURE_IDS));

  const uniqueId = (prefix: string, length: number): string => {
    for (;;) {
      const id = prefix + randomIdBody(random, length);
      if (!usedIds.has(id)) {
        usedIds.add(id);
        return id;
      }
    }
  };

  const addChannel = (id: string, title: string, videoCount: number): ChannelRecord => {
    const channel = { id, title };
    channels.push(channel);
    const own: VideoRecord[] = [];
    for (let i = 0; i < videoCount; i++) {
      const video: VideoRecord = {
        id: uniqueId('', 11),
        channelId: id,
        title: videoTitle(random),
        description: description(random, random.int(1, 4)),
        duration: randomDuration(random),
        viewCount: randomViewCount(random),
        publishedAt: DATA_EPOCH - age(random),
        publishedKnown: !random.chance(0.03),
      };
      own.push(video);
      videos.push(video);
    }
    videosByChannel.set(id, own);
    return channel;
  };

  const addPlaylist = (
    id: string,
    channelId: string,
    ordinal: number,
    videoIds: string[],
    title = playlistTitle(random),
  ): void => {
    playlists.push({
      id,
      channelId,
      title,
      description: random.chance(0.2) ? '' : description(random, random.int(1, 5)),
      viewCount: randomViewCount(random) * 3,
      updatedAt: DATA_EPOCH - age(random),
      ordinal,
      videoIds,
    });
  };

  const big = addChannel(FIXTURE_IDS.bigChannel, 'Catalogue Demo Studios', BIG_CHANNEL_VIDEOS);
  addChannel(FIXTURE_IDS.smallChannel, 'Tiny Workshop', SMALL_CHANNEL_VIDEOS);
  for (let i = 0; i < GENERATED_CHANNELS; i++) {
    const count = Math.round(Math.exp(1.5 + random.next() * 3.5)); // 4 to ~150 videos
    addChannel(uniqueId('UC', 22), channelName(random, i), count);
  }

  // A playlist mostly holds its owner's videos, with some from elsewhere, as real ones do.
  const pickVideos = (ownerId: string, size: number): string[] => {
    const own = videosByChannel.get(ownerId) ?? [];
    const ids: string[] = [];
    for (let i = 0; i < size; i++) {
      const fromOwner = own.length > 0 && random.chance(0.8);
      ids.push((fromOwner ? random.pick(own) : random.pick(videos)).id);
    }
    return ids;
  };

  // The fixtures live on the big channel's playlists tab, so the app can reach them by clicking.
  const fixtures: Array<[string, string]> = [
    [FIXTURE_IDS.playlist5000, 'Every talk, 2010–2026 🎤'],
    [FIXTURE_IDS.playlist101, 'Field recordings 🎧'],
    [FIXTURE_IDS.playlist100, 'One hundred short films 🎞️'],
    [FIXTURE_IDS.playlistEmpty, 'Watch later (empty)'],
  ];
  fixtures.forEach(([id, title], ordinal) => {
    const size = FIXTURE_SIZES[id as keyof typeof FIXTURE_SIZES];
    const ids = pickVideos(big.id, size);
    // Real playlists can hold the same video twice; the 5,000 one does, twice over.
    if (size >= 5000) {
      ids[2500] = ids[10] as string;
      ids[4999] = ids[0] as string;
    }
    addPlaylist(id, big.id, ordinal, ids, title);
  });
  for (let ordinal = fixtures.length; ordinal < BIG_CHANNEL_PLAYLISTS; ordinal++) {
    addPlaylist(uniqueId('PL', 32), big.id, ordinal, pickVideos(big.id, random.int(0, 320)));
  }

  for (const channel of channels.slice(2)) {
    const count = random.chance(0.3) ? 0 : random.int(1, 12);
    for (let ordinal = 0; ordinal < count; ordinal++) {
      addPlaylist(
        uniqueId('PL', 32),
        channel.id,
        ordinal,
        pickVideos(channel.id, random.int(1, 180)),
      );
    }
  }

  return { channels, videos, playlists };
}
