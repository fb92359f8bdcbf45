import type { BreadcrumbList, ItemList, ListItem, VideoObject, WithContext } from 'schema-dts';
import type {
  ChannelPlaylist,
  ChannelVideo,
  PlaylistInfo,
  PlaylistItem,
  Thumbnail,
} from '../../shared/catalogue-schema.ts';
import { channelPath, playlistPath, type ChannelTab } from '../../shared/app-routes.ts';
import { watchUrl } from '../../shared/platform-links.ts';
import { largestThumbnail } from './cached-pages.ts';

// Structured data for search engines: each list view's head carries JSON-LD describing what its
// first page shows, an ItemList of the videos (or playlists) at their positions and a
// BreadcrumbList from the channel to the list. The objects are typed with schema-dts, so a
// property or type that schema.org does not define does not compile. Every string comes from the
// upstream, so `<`, `>` and `&` are written as JSON escapes: no title can end the block, and a
// JSON-LD reader decodes them back to the same text.

/** What a view's structured data is made of: its first page, as the link preview read it. */
export type StructuredView =
  | { kind: 'playlist'; id: string; info: PlaylistInfo; items: readonly PlaylistItem[] }
  | {
      kind: 'channel';
      id: string;
      tab: ChannelTab;
      /** The channel's name when the explorer has seen it (channel-titles.ts). */
      name: string | undefined;
      videos: readonly ChannelVideo[];
      playlists: readonly ChannelPlaylist[];
    };

type Graph = Array<WithContext<ItemList> | WithContext<BreadcrumbList>>;

const absolute = (path: string, origin: string) => `${origin}${path}`;

/**
 * The largest thumbnail's URL made absolute (the embedded catalogue's are root-relative), among
 * the http(s) ones; one only, since a full page's items would otherwise swell the block.
 */
function thumbnailUrl(thumbnails: readonly Thumbnail[], origin: string): string[] {
  const usable = thumbnails.flatMap((thumbnail) => {
    const url = URL.parse(thumbnail.url, origin);
    return url !== null && (url.protocol === 'https:' || url.protocol === 'http:')
      ? [{ ...thumbnail, url: url.href }]
      : [];
  });
  const best = largestThumbnail(usable);
  return best === null ? [] : [best.url];
}

/** Seconds as an ISO 8601 duration (schema.org's Duration): 3725 → PT1H2M5S. */
export function isoDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `PT${h > 0 ? `${h}H` : ''}${m > 0 ? `${m}M` : ''}${s > 0 || (h === 0 && m === 0) ? `${s}S` : ''}`;
}

function video(
  fields: { id: string; title: string; thumbnails: readonly Thumbnail[]; duration: number | null },
  url: string,
  origin: string,
): VideoObject {
  return {
    '@type': 'VideoObject',
    name: fields.title,
    url,
    thumbnailUrl: thumbnailUrl(fields.thumbnails, origin),
    ...(fields.duration === null ? {} : { duration: isoDuration(fields.duration) }),
  };
}

function breadcrumbs(steps: Array<{ name: string; url: string }>): WithContext<BreadcrumbList> {
  return {
    '@context': 'https://schema.org',
    '@type': 'BreadcrumbList',
    itemListElement: steps.map((step, i): ListItem => ({
      '@type': 'ListItem',
      position: i + 1,
      name: step.name,
      item: step.url,
    })),
  };
}

/**
 * The JSON-LD objects for `view`, URLs absolute on `origin`, listing its first `shown` items:
 * the rows the page itself shows (structured data describes what a reader sees), which also
 * keeps a phone's page, showing fewer rows, lighter.
 */
export function structuredData(view: StructuredView, origin: string, shown = Infinity): Graph {
  if (view.kind === 'playlist') {
    const { id, info } = view;
    const items = view.items.slice(0, shown);
    const url = absolute(playlistPath(id), origin);
    const list: WithContext<ItemList> = {
      '@context': 'https://schema.org',
      '@type': 'ItemList',
      name: info.title,
      url,
      numberOfItems: info.totalItems,
      itemListOrder: 'https://schema.org/ItemListOrderAscending',
      itemListElement: items.map((item): ListItem => ({
        '@type': 'ListItem',
        position: item.index,
        url: absolute(playlistPath(id, { index: item.index }), origin),
        item: video(item, watchUrl(item.id, id, item.index), origin),
      })),
    };
    return [
      list,
      breadcrumbs([
        { name: info.channelTitle, url: absolute(channelPath(info.channelId, 'videos'), origin) },
        { name: info.title, url },
      ]),
    ];
  }
  const { id, tab, name } = view;
  const channelName = name ?? id;
  const url = absolute(channelPath(id, tab), origin);
  const tabName = tab === 'videos' ? 'Videos' : 'Playlists';
  const itemListElement =
    tab === 'videos'
      ? view.videos.slice(0, shown).map((item, i): ListItem => ({
          '@type': 'ListItem',
          position: i + 1,
          item: video(item, watchUrl(item.id), origin),
        }))
      : view.playlists.slice(0, shown).map((playlist, i): ListItem => ({
          '@type': 'ListItem',
          position: i + 1,
          item: {
            '@type': 'ItemList',
            name: playlist.title,
            url: absolute(playlistPath(playlist.id), origin),
            numberOfItems: playlist.videoCount,
          },
        }));
  return [
    {
      '@context': 'https://schema.org',
      '@type': 'ItemList',
      name: `${channelName} · ${tabName}`,
      url,
      itemListElement,
    },
    breadcrumbs([
      { name: channelName, url: absolute(channelPath(id, 'videos'), origin) },
      { name: tabName, url },
    ]),
  ];
}

/** JSON that cannot end the <script> holding it, nor open a comment or an entity there. */
export function scriptSafeJson(value: unknown): string {
  return (
    JSON.stringify(value)
      .replaceAll('<', '\\u003c')
      .replaceAll('>', '\\u003e')
      .replaceAll('&', '\\u0026')
      // Not needed to keep the block whole; keeps every quote out of the head's raw text.
      .replaceAll("'", '\\u0027')
      .replaceAll('\u2028', '\\u2028')
      .replaceAll('\u2029', '\\u2029')
  );
}

export const JSON_LD_OPEN = '<script type="application/ld+json">';

/** The <script type="application/ld+json"> blocks for `view`, one a line. */
export function structuredDataTags(view: StructuredView, origin: string, shown?: number): string {
  return structuredData(view, origin, shown)
    .map((data) => `${JSON_LD_OPEN}${scriptSafeJson(data)}</script>`)
    .join('\n');
}
