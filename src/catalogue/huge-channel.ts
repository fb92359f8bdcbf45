import type {
  CatalogueStore,
  ChannelVideoRow,
  PlaylistItemRow,
  PlaylistRow,
  Slice,
} from './catalogue-db.ts';
import { DATA_EPOCH, DEMO_SEED, randomDuration, randomViewCount } from './demo-data.ts';
import {
  FIXTURE_IDS,
  HUGE_CHANNEL_TITLE,
  HUGE_CHANNEL_VIDEOS,
  LONG_PLAYLIST_ITEMS,
} from './demo-fixtures.ts';
import { description, videoTitle } from './demo-text.ts';
import { createRandom, hashString, ID_ALPHABET, type Random } from './random.ts';

// The demo's huge channel, newest first (spec §4.2), so that whole-list jobs longer than an hour
// of quota can be tried with no internet. None of it is in the SQLite file, which would make the
// first start slow and the file big: each video is made on demand from a PRNG seeded by its index
// (0 is the newest), so every machine and request sees the same records, and a page costs the
// same whatever its depth. Its continuations are the other channels' signed keysets (spec §2.6,
// continuation.ts); publication times fall strictly with the index, so a keyset maps back to an
// index by binary search, meaning what the database's `(published_at, id) < (?, ?)` seek means.

/** Seconds between two uploads, on average: the channel spans years, like a real one. */
const SPACING = 1500;
/** The newest video's age at DATA_EPOCH, before its jitter. */
const NEWEST_AGE = 600;

const seedOf = (index: number): number => (hashString(`huge-channel:${index}`) ^ DEMO_SEED) >>> 0;

/**
 * Seconds before DATA_EPOCH: a steady pace with a jitter below the spacing, so ages strictly
 * grow with the index (the newest-first order, with no ties) and each is computed alone.
 * Must be the first draw of the video's PRNG, so that publishedAtOf needs no other.
 */
const ageAt = (index: number, random: Random): number =>
  NEWEST_AGE + index * SPACING + Math.floor(random.next() * (SPACING - 1));

export const publishedAtOf = (index: number): number =>
  DATA_EPOCH - ageAt(index, createRandom(seedOf(index)));

// Video IDs: the index through a bijection of 66-bit numbers (11 characters of 6 bits), so
// they look like the platform's, are unique by construction, and give their index back (the
// thumbnail route and the keyset need that, with no table to look in). Odd multipliers are
// invertible modulo 2^66, and `x ^ (x >> 33)` is its own inverse at this width.
const BITS = 66n;
const MASK = (1n << BITS) - 1n;
const SALT = BigInt(DEMO_SEED) * 0x2545f4914f6cdd1dn;
const MULTIPLIERS = [0x9e3779b97f4a7c15n, 0xbf58476d1ce4e5b9n];
const ID_LENGTH = 11;

/** The inverse of odd `a` modulo 2^66, by Newton's iteration (each step doubles the bits). */
function inverse(a: bigint): bigint {
  let x = a;
  for (let i = 0; i < 7; i++) x = (x * (2n - a * x)) & MASK;
  return x;
}
const INVERSES = MULTIPLIERS.map(inverse);

const fold = (x: bigint): bigint => x ^ (x >> 33n);

export function hugeChannelVideoId(index: number): string {
  let x = (BigInt(index) + SALT) & MASK;
  for (const m of MULTIPLIERS) x = fold((x * m) & MASK);
  let id = '';
  for (let i = ID_LENGTH - 1; i >= 0; i--) id += ID_ALPHABET[Number((x >> BigInt(6 * i)) & 63n)];
  return id;
}

const CHARACTER_VALUES = new Map([...ID_ALPHABET].map((c, i) => [c, BigInt(i)]));

/** The index of one of the huge channel's videos, or null when `id` is not one of them. */
export function hugeChannelVideoIndex(id: string): number | null {
  if (id.length !== ID_LENGTH) return null;
  let x = 0n;
  for (const c of id) {
    const value = CHARACTER_VALUES.get(c);
    if (value === undefined) return null;
    x = (x << 6n) | value;
  }
  for (let i = MULTIPLIERS.length - 1; i >= 0; i--) x = (fold(x) * INVERSES[i]!) & MASK;
  const index = (x - SALT) & MASK;
  return index < BigInt(HUGE_CHANNEL_VIDEOS) ? Number(index) : null;
}

/** The video at `index` (0 the newest), as the database would hand it over. */
export function hugeChannelVideo(index: number): ChannelVideoRow {
  const random = createRandom(seedOf(index));
  const publishedAt = DATA_EPOCH - ageAt(index, random);
  return {
    id: hugeChannelVideoId(index),
    title: videoTitle(random),
    description: description(random, random.int(1, 4)),
    duration: randomDuration(random),
    viewCount: randomViewCount(random),
    publishedAt,
    // A few videos without a date, as on the other channels (spec §2.4: null publishedText).
    publishedKnown: random.chance(0.03) ? 0 : 1,
  };
}

/** Sorts before (is newer than) the keyset, in the order of the database's channel seek. */
const isAfter = (index: number, [at, id]: [number, string]): boolean => {
  const published = publishedAtOf(index);
  return published < at || (published === at && hugeChannelVideoId(index) < id);
};

/** The index of the first video after the keyset: the first page starts at 0. */
export function firstIndexAfter(after: [number, string] | null): number {
  if (after === null) return 0;
  // The predicate is false then true along the index (newest first, times strictly falling).
  let low = 0;
  let high = HUGE_CHANNEL_VIDEOS;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (isAfter(middle, after)) high = middle;
    else low = middle + 1;
  }
  return low;
}

/** `limit` videos after the keyset: O(limit) records made, none of the others. */
export function hugeChannelVideos(
  after: [number, string] | null,
  limit: number,
): Slice<ChannelVideoRow> {
  const start = firstIndexAfter(after);
  const end = Math.min(HUGE_CHANNEL_VIDEOS, start + limit);
  const rows: ChannelVideoRow[] = [];
  for (let index = start; index < end; index++) rows.push(hugeChannelVideo(index));
  return { rows, hasMore: end < HUGE_CHANNEL_VIDEOS };
}

const LONG_PLAYLIST: PlaylistRow = {
  id: FIXTURE_IDS.playlist20000,
  channelId: FIXTURE_IDS.hugeChannel,
  channelTitle: HUGE_CHANNEL_TITLE,
  title: 'The archive’s first 20,000',
  description: 'Twenty thousand videos from the Endless Archive, newest first.',
  viewCount: 1_234_567,
  updatedAt: DATA_EPOCH,
  itemCount: LONG_PLAYLIST_ITEMS,
};

/** The long playlist's items after `afterPosition` (positions from 1): the channel's videos. */
function longPlaylistItems(afterPosition: number, limit: number): Slice<PlaylistItemRow> {
  const end = Math.min(LONG_PLAYLIST_ITEMS, afterPosition + limit);
  const rows: PlaylistItemRow[] = [];
  for (let position = afterPosition + 1; position <= end; position++) {
    const video = hugeChannelVideo(position - 1);
    rows.push({
      position,
      videoId: video.id,
      title: video.title,
      channelId: FIXTURE_IDS.hugeChannel,
      channelTitle: HUGE_CHANNEL_TITLE,
      duration: video.duration,
      viewCount: video.viewCount,
      publishedAt: video.publishedAt,
    });
  }
  return { rows, hasMore: end < LONG_PLAYLIST_ITEMS };
}

/**
 * The store with the huge channel added in front of it: the channel exists, its videos are
 * made on demand, it lists no playlists (spec §4.3 rule 1: an empty list and a null
 * continuation), and its videos exist for the thumbnail route. The long playlist is made of its
 * first videos, on demand too (owned by it, yet not on its tab: the home page lists it).
 * Everything else goes to `store`.
 */
export function withHugeChannel(store: CatalogueStore): CatalogueStore {
  const huge = FIXTURE_IDS.hugeChannel;
  const long = FIXTURE_IDS.playlist20000;
  return {
    playlist: (id) => (id === long ? LONG_PLAYLIST : store.playlist(id)),
    playlistItems: (id, afterPosition, limit) =>
      id === long
        ? longPlaylistItems(afterPosition, limit)
        : store.playlistItems(id, afterPosition, limit),
    close: () => store.close(),
    channelExists: (id) => id === huge || store.channelExists(id),
    videoExists: (id) => hugeChannelVideoIndex(id) !== null || store.videoExists(id),
    channelVideos: (id, after, limit) =>
      id === huge ? hugeChannelVideos(after, limit) : store.channelVideos(id, after, limit),
    channelPlaylists: (id, afterOrdinal, limit) =>
      id === huge ? { rows: [], hasMore: false } : store.channelPlaylists(id, afterOrdinal, limit),
  };
}
