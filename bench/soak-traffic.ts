import { FIXTURE_IDS } from '../src/catalogue/demo-fixtures.ts';
import type { EndpointName } from '../src/shared/endpoints.ts';
import { endpoints } from '../src/shared/endpoints.ts';

// The soak's traffic: what a crowd of readers, a few link unfurlers and a careless script send
// an explorer over minutes. Each request says what it is and which statuses are its intended
// answers, so that the soak can tell an answer it meant to provoke (a 400 for a bad ID, a 404
// for an unknown list) from one nobody should get (any 5xx, a 429 with the limits lifted).
//
// Distinct pages come from crawling the catalogue through the explorer itself: every page
// answered names more (its continuation, the channels of its videos, a channel's playlists),
// so the crawl reaches thousands of pages, far more than the cache holds, and evicts it for as
// long as the soak runs. When the crawl has seen everything it starts again from the fixtures:
// by then those pages have long left the cache.

export type Kind = 'cached' | 'distinct' | 'lists' | 'invalid' | 'html';

export interface SoakRequest {
  kind: Kind;
  path: string;
  headers: Record<string, string>;
  expected: readonly number[];
  /** The answer's body, for requests whose page feeds the crawl. */
  onPage?: (page: unknown) => void;
  /** The answer's ETag, for requests that remember it for a later conditional request. */
  onEtag?: (etag: string) => void;
}

/** Share of each kind, out of 100. */
const MIX: ReadonlyArray<[Kind, number]> = [
  ['cached', 40],
  ['distinct', 25],
  ['lists', 10],
  ['invalid', 10],
  ['html', 15],
];

/** A small, fixed, seeded generator: the same traffic on every run. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface PageRef {
  endpoint: EndpointName;
  id: string;
  continuation?: string;
}

/** A lookup's path on the explorer's API. */
export const pathOf = ({ endpoint, id, continuation }: PageRef) =>
  `${endpoints[endpoint].path}?id=${encodeURIComponent(id)}${
    continuation === undefined ? '' : `&continuation=${encodeURIComponent(continuation)}`
  }`;

const PAGE_STATUS = [200] as const;
const ENCODINGS = ['br, gzip', 'gzip', 'identity', 'gzip, deflate, br'];

/** The pages everyone reads: the fixtures' first pages and their second. */
const HOT: PageRef[] = [
  { endpoint: 'playlist', id: FIXTURE_IDS.playlist5000 },
  { endpoint: 'playlist', id: FIXTURE_IDS.playlist100 },
  { endpoint: 'playlist', id: FIXTURE_IDS.playlist101 },
  { endpoint: 'playlist', id: FIXTURE_IDS.playlistEmpty },
  { endpoint: 'channel-videos', id: FIXTURE_IDS.bigChannel },
  { endpoint: 'channel-playlists', id: FIXTURE_IDS.bigChannel },
  { endpoint: 'channel-videos', id: FIXTURE_IDS.smallChannel },
  { endpoint: 'channel-playlists', id: FIXTURE_IDS.smallChannel },
];

/** Input the explorer refuses itself (400), and lists of the right shape nobody has (404). */
const INVALID: ReadonlyArray<[string, number]> = [
  ['/api/v1/playlist?id=not-an-id', 400],
  ['/api/v1/playlist', 400],
  [`/api/v1/playlist?id=${FIXTURE_IDS.playlist100}&id=${FIXTURE_IDS.playlist101}`, 400],
  [`/api/v1/playlist?id=${FIXTURE_IDS.playlist100}&page=2`, 400],
  [`/api/v1/channel-videos?id=UCshort`, 400],
  [`/api/v1/playlist?id=${FIXTURE_IDS.playlist100}&continuation=with%20space`, 400],
  ['/api/v1/nothing-here', 404],
];

export interface Traffic {
  next(): SoakRequest;
  stats(): { crawled: number; crawls: number; frontier: number };
}

export function createTraffic(seed = 1): Traffic {
  const random = mulberry32(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

  // The crawl: pages to ask for once, and what has been queued already (by path).
  let frontier: PageRef[] = [];
  let queued = new Set<string>();
  let crawled = 0;
  let crawls = 0;
  const channels: string[] = [FIXTURE_IDS.bigChannel, FIXTURE_IDS.smallChannel];
  const playlists: string[] = [FIXTURE_IDS.playlist5000, FIXTURE_IDS.playlist101];
  const knownChannels = new Set(channels);
  const knownPlaylists = new Set(playlists);
  const etags = new Map<string, string>();
  let unknown = 0;

  const enqueue = (ref: PageRef) => {
    const path = pathOf(ref);
    if (queued.has(path)) return;
    queued.add(path);
    frontier.push(ref);
  };
  const restart = () => {
    crawls++;
    frontier = [];
    queued = new Set();
    // Every list found so far, from its first page: a pass reads the whole known catalogue.
    for (const id of playlists) enqueue({ endpoint: 'playlist', id });
    for (const id of channels) {
      enqueue({ endpoint: 'channel-videos', id });
      enqueue({ endpoint: 'channel-playlists', id });
    }
  };
  restart();

  /** Everything a page names: its next page, its videos' channels, a channel's playlists. */
  const learn = (ref: PageRef) => (data: unknown) => {
    const page = data as {
      continuation?: string | null;
      items?: Array<{ channelId?: string; id?: string }>;
    };
    if (typeof page.continuation === 'string') enqueue({ ...ref, continuation: page.continuation });
    for (const item of page.items ?? []) {
      if (ref.endpoint === 'playlist' && item.channelId && !knownChannels.has(item.channelId)) {
        knownChannels.add(item.channelId);
        channels.push(item.channelId);
        enqueue({ endpoint: 'channel-videos', id: item.channelId });
        enqueue({ endpoint: 'channel-playlists', id: item.channelId });
      }
      if (ref.endpoint === 'channel-playlists' && item.id && !knownPlaylists.has(item.id)) {
        knownPlaylists.add(item.id);
        playlists.push(item.id);
        enqueue({ endpoint: 'playlist', id: item.id });
      }
    }
  };

  const page = (kind: Kind, ref: PageRef, conditional: boolean): SoakRequest => {
    const path = pathOf(ref);
    const headers: Record<string, string> = { 'accept-encoding': pick(ENCODINGS) };
    const etag = etags.get(path);
    if (conditional && etag !== undefined) headers['if-none-match'] = etag;
    return {
      kind,
      path,
      headers,
      expected: conditional && etag !== undefined ? [304] : PAGE_STATUS,
      onEtag: (tag) => etags.set(path, tag),
    };
  };

  const makers: Record<Kind, () => SoakRequest> = {
    cached: () => page('cached', pick(HOT), random() < 0.3),
    distinct: () => {
      if (frontier.length === 0) restart();
      // From anywhere in the frontier, so that many lists are read side by side.
      const index = Math.floor(random() * Math.min(frontier.length, 64));
      const ref = frontier.splice(index, 1)[0] as PageRef;
      crawled++;
      return { ...page('distinct', ref, false), onPage: learn(ref) };
    },
    lists: () => {
      const endpoint = pick<EndpointName>(['playlist', 'channel-videos', 'channel-playlists']);
      const id = endpoint === 'playlist' ? pick(playlists) : pick(channels);
      return page('lists', { endpoint, id }, false);
    },
    invalid: () => {
      // Now and then a list of the right shape that does not exist: the upstream says 404.
      if (random() < 0.3) {
        const id = `PLsoakUnknown${String(unknown++ % 5000).padStart(8, '0')}`;
        return {
          kind: 'invalid',
          path: pathOf({ endpoint: 'playlist', id }),
          headers: {},
          expected: [404],
        };
      }
      const [path, status] = pick(INVALID);
      return { kind: 'invalid', path, headers: {}, expected: [status] };
    },
    html: () => {
      const roll = random();
      const accept = { accept: 'text/html', 'accept-encoding': 'br, gzip' };
      if (roll < 0.1) return { kind: 'html', path: '/', headers: accept, expected: [200] };
      if (roll < 0.2)
        return { kind: 'html', path: '/no/such/page', headers: accept, expected: [404] };
      if (roll < 0.5) {
        // A deep link into a long playlist: the preview names the item when it is cached.
        const index = 1 + Math.floor(random() * 5000);
        const path = `/playlist/${FIXTURE_IDS.playlist5000}?index=${index}`;
        return { kind: 'html', path, headers: accept, expected: [200] };
      }
      if (roll < 0.75)
        return {
          kind: 'html',
          path: `/playlist/${pick(playlists)}`,
          headers: accept,
          expected: [200],
        };
      return { kind: 'html', path: `/channel/${pick(channels)}`, headers: accept, expected: [200] };
    },
  };

  const total = MIX.reduce((sum, [, share]) => sum + share, 0);
  return {
    next() {
      let roll = random() * total;
      for (const [kind, share] of MIX) {
        roll -= share;
        if (roll < 0) return makers[kind]();
      }
      return makers.cached();
    },
    stats: () => ({ crawled, crawls, frontier: frontier.length }),
  };
}
