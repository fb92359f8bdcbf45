import type {
  ChannelPlaylistsPage,
  ChannelVideosPage,
  PlaylistPage,
  Thumbnail,
} from '../shared/catalogue-schema.ts';

// For tests only: a small catalogue whose text is awkward on purpose (quotes, `<`, `&`, `'`
// and emoji in every title), served by the test upstream through `pagesFrom`. One playlist of
// 250 items in pages of 100, 50 and 100 (nothing promises 100 a page), whose middle page holds
// another channel's videos; a channel with videos and playlists; everything else is unknown.

export const PLAYLIST_ID = 'PLlinkPreviewRockAndRoll0001';
export const OWNER_ID = 'UClinkPreviewChannel0001';
export const GUEST_ID = 'UCvideoOwnerChannel00001';
export const UNKNOWN_CHANNEL_ID = 'UCunknownChannelTitle000';
export const UNKNOWN_PLAYLIST_ID = 'PLdoesNotExist000000000';

export const PLAYLIST_TITLE = `Rock & Roll "Classics" <Live> — Tom's picks 🎸🔥`;
export const OWNER_TITLE = `Tom's "Quotes" & <Co> 🎬`;
export const GUEST_TITLE = `Guest <Band> & 'Friends' 👩‍👩‍👧`;
export const PLAYLIST_DESCRIPTION =
  'Every song that made the cut, recorded live between 1955 and 1975 in halls, clubs and ' +
  'garages across three continents, with the crowd noise left in because that is half of the ' +
  'fun; the sleeve notes, the set lists and the stories behind each take follow below in full.';
export const PLAYLIST_SIZE = 250;
const PAGE_SIZES = [100, 50, 100];
/** The continuation of the page after page `n` (1-based); `+`, `/`, `=` and `%` as real ones have. */
export const continuationAfter = (n: number) => `p${n + 1}+/=%2F`;

export const itemTitle = (n: number) => `Song ${n}: "Hey" <b>you</b> & 'me' 🎵`;

/** Out of size order on purpose, the largest one root-relative (as the embedded catalogue's are). */
export const PLAYLIST_THUMBNAILS: Thumbnail[] = [
  { url: 'https://i.example.com/pl/small.jpg?a=1&b=2', width: 120, height: 90 },
  { url: `/thumbnails/pl/${PLAYLIST_ID}/hqdefault.jpg?sqp=x&rs=y`, width: 480, height: 360 },
  { url: 'https://i.example.com/pl/medium.jpg', width: 320, height: 180 },
];

export const itemThumbnails = (n: number): Thumbnail[] => [
  { url: `https://i.example.com/vi/${n}/default.jpg`, width: 120, height: 90 },
  { url: `https://i.example.com/vi/${n}/maxres.jpg?s=1&t="x"`, width: 1280, height: 720 },
  { url: `https://i.example.com/vi/${n}/mq.jpg`, width: 320, height: 180 },
];

function playlistPage(page: number): PlaylistPage {
  const start = PAGE_SIZES.slice(0, page - 1).reduce((a, b) => a + b, 0);
  const guest = page === 2;
  const items = Array.from({ length: PAGE_SIZES[page - 1] ?? 0 }, (_, i) => ({
    index: start + i + 1,
    id: 'dQw4w9WgXcQ',
    title: itemTitle(start + i + 1),
    thumbnails: itemThumbnails(start + i + 1),
    channelId: guest ? GUEST_ID : OWNER_ID,
    channelTitle: guest ? GUEST_TITLE : OWNER_TITLE,
    viewsText: '1.2M views',
    publishedText: '3 years ago',
    duration: 212,
  }));
  const continuation = page < PAGE_SIZES.length ? continuationAfter(page) : null;
  if (page > 1) return { items, continuation };
  return {
    info: {
      id: PLAYLIST_ID,
      title: PLAYLIST_TITLE,
      description: PLAYLIST_DESCRIPTION,
      thumbnails: PLAYLIST_THUMBNAILS,
      channelId: OWNER_ID,
      channelTitle: OWNER_TITLE,
      totalItems: PLAYLIST_SIZE,
      views: 1234,
      lastUpdated: 'Updated 2 days ago',
      url: `https://www.youtube.com/playlist?list=${PLAYLIST_ID}`,
    },
    items,
    continuation,
  };
}

export const NEWEST_VIDEO_THUMBNAILS: Thumbnail[] = [
  { url: 'https://i.example.com/cv/newest-mq.jpg', width: 320, height: 180 },
  { url: 'https://i.example.com/cv/newest-hq.jpg', width: 480, height: 360 },
];
export const FIRST_LIST_THUMBNAILS: Thumbnail[] = [
  { url: '/thumbnails/pl/first-list/hqdefault.jpg?a=1&b=2', width: 480, height: 360 },
];

const channelVideos: ChannelVideosPage = {
  items: [
    {
      id: 'dQw4w9WgXcQ',
      title: 'The newest one',
      descriptionSnippet: '…',
      thumbnails: NEWEST_VIDEO_THUMBNAILS,
      duration: 60,
      viewCount: 5,
      publishedText: '1 day ago',
    },
  ],
  continuation: null,
};

const channelPlaylists: ChannelPlaylistsPage = {
  items: [
    {
      id: 'PLfirstListOfTheChannel01',
      title: 'First list',
      thumbnails: FIRST_LIST_THUMBNAILS,
      url: 'https://www.youtube.com/playlist?list=PLfirstListOfTheChannel01',
      videoCount: 3,
    },
  ],
  continuation: null,
};

/** The page the test catalogue has for a lookup URL, or undefined (a 404). */
export function previewCataloguePage(url: URL): object | undefined {
  const id = url.searchParams.get('id');
  const continuation = url.searchParams.get('continuation');
  switch (url.pathname) {
    case '/api/v1/playlist': {
      if (id !== PLAYLIST_ID) return undefined;
      if (continuation === null) return playlistPage(1);
      const after = PAGE_SIZES.findIndex((_, n) => n > 0 && continuationAfter(n) === continuation);
      return after === -1 ? undefined : playlistPage(after + 1);
    }
    case '/api/v1/channel-videos':
      return id === OWNER_ID ? channelVideos : undefined;
    case '/api/v1/channel-playlists':
      return id === OWNER_ID ? channelPlaylists : undefined;
    default:
      return undefined;
  }
}
