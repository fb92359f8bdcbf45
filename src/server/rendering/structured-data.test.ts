import { describe, expect, it } from 'vitest';
import type { PlaylistInfo, PlaylistItem } from '../../shared/catalogue-schema.ts';
import {
  isoDuration,
  scriptSafeJson,
  structuredData,
  structuredDataTags,
  type StructuredView,
} from './structured-data.ts';

// The JSON-LD of a view's head: what it says of the first page, and that upstream text stays
// data, whatever it holds.

const ORIGIN = 'https://explorer.example';
const HOSTILE = [
  '</script><script>alert(1)</script>',
  '</SCRIPT >x',
  '<!-- <script>',
  `"quotes" & 'apostrophes' <b>markup</b>`,
  // Right-to-left override and isolate, and the JavaScript line separators.
  '\u202Eevil\u202C \u2067مرحبا\u2069 \u2028next\u2029',
];

const info = (title: string): PlaylistInfo => ({
  id: 'PLstructuredData0001',
  title,
  description: title,
  thumbnails: [],
  channelId: 'UCstructuredDataChan01',
  channelTitle: `${title} (channel)`,
  totalItems: 2345,
  views: 1,
  lastUpdated: '2026-01-01',
  url: 'https://www.youtube.com/playlist?list=PLstructuredData0001',
});

const item = (index: number, title: string, duration: number | null): PlaylistItem => ({
  index,
  id: 'dQw4w9WgXcQ',
  title,
  thumbnails: [
    { url: `/thumbnails/vi/dQw4w9WgXcQ/hqdefault.jpg?n=${index}`, width: 480, height: 360 },
    { url: 'javascript:alert(1)', width: 1920, height: 1080 },
  ],
  channelId: 'UCstructuredDataChan01',
  channelTitle: title,
  viewsText: '',
  publishedText: '',
  duration,
});

const playlistView = (title: string): StructuredView => ({
  kind: 'playlist',
  id: 'PLstructuredData0001',
  info: info(title),
  items: [item(1, title, 3725), item(2, `${title} 2`, null)],
});

/** The blocks' JSON, split where an HTML parser would end each script element. */
function blocks(html: string): unknown[] {
  const parts = html.split(/<script type="application\/ld\+json">/).slice(1);
  return parts.map((part) => {
    const end = part.search(/<\/script/i);
    return JSON.parse(part.slice(0, end)) as unknown;
  });
}

describe('structured data', () => {
  it('a playlist: an ItemList of its first page at their positions, and channel → list crumbs', () => {
    const [list, crumbs] = structuredData(playlistView('Bread & butter'), ORIGIN);
    expect(list).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'ItemList',
      name: 'Bread & butter',
      url: `${ORIGIN}/playlist/PLstructuredData0001`,
      numberOfItems: 2345,
      itemListElement: [
        {
          '@type': 'ListItem',
          position: 1,
          url: `${ORIGIN}/playlist/PLstructuredData0001?index=1`,
          item: {
            '@type': 'VideoObject',
            name: 'Bread & butter',
            url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ&list=PLstructuredData0001&index=1',
            // The largest, absolute, and only http(s).
            thumbnailUrl: [`${ORIGIN}/thumbnails/vi/dQw4w9WgXcQ/hqdefault.jpg?n=1`],
            duration: 'PT1H2M5S',
          },
        },
        { position: 2, item: { name: 'Bread & butter 2' } },
      ],
    });
    // A live stream's null duration is left out, not written as zero.
    expect(JSON.stringify(list)).not.toContain('PT0S');
    expect(crumbs).toEqual({
      '@context': 'https://schema.org',
      '@type': 'BreadcrumbList',
      itemListElement: [
        {
          '@type': 'ListItem',
          position: 1,
          name: 'Bread & butter (channel)',
          item: `${ORIGIN}/channel/UCstructuredDataChan01`,
        },
        {
          '@type': 'ListItem',
          position: 2,
          name: 'Bread & butter',
          item: `${ORIGIN}/playlist/PLstructuredData0001`,
        },
      ],
    });
  });

  it('a channel: its videos, or its playlists as lists with their counts', () => {
    const base = { kind: 'channel', id: 'UCstructuredDataChan01', name: 'Baking' } as const;
    const [videos] = structuredData(
      {
        ...base,
        tab: 'videos',
        videos: [
          {
            id: 'dQw4w9WgXcQ',
            title: 'Sourdough',
            descriptionSnippet: '',
            thumbnails: [],
            duration: 59,
            viewCount: 1,
            publishedText: null,
          },
        ],
        playlists: [],
      },
      ORIGIN,
    );
    expect(videos).toMatchObject({
      name: 'Baking · Videos',
      url: `${ORIGIN}/channel/UCstructuredDataChan01`,
      itemListElement: [
        { position: 1, item: { '@type': 'VideoObject', name: 'Sourdough', duration: 'PT59S' } },
      ],
    });
    const [playlists, crumbs] = structuredData(
      {
        ...base,
        name: undefined,
        tab: 'playlists',
        videos: [],
        playlists: [
          { id: 'PLstructuredData0001', title: 'Breads', thumbnails: [], url: '', videoCount: 12 },
        ],
      },
      ORIGIN,
    );
    expect(playlists).toMatchObject({
      // Not yet known by name: the ID stands in.
      name: 'UCstructuredDataChan01 · Playlists',
      itemListElement: [
        {
          position: 1,
          item: {
            '@type': 'ItemList',
            name: 'Breads',
            url: `${ORIGIN}/playlist/PLstructuredData0001`,
            numberOfItems: 12,
          },
        },
      ],
    });
    expect(crumbs).toMatchObject({
      itemListElement: [
        { position: 1, name: 'UCstructuredDataChan01' },
        {
          position: 2,
          name: 'Playlists',
          item: `${ORIGIN}/channel/UCstructuredDataChan01/playlists`,
        },
      ],
    });
  });

  it.each(HOSTILE)('upstream text stays data in the block: %j', (title) => {
    const view = playlistView(title);
    const html = structuredDataTags(view, ORIGIN);
    // Two blocks, each ended by its own closing tag and by nothing earlier.
    expect(html.match(/<\/script/gi)).toHaveLength(2);
    expect(html).not.toContain('<!--');
    expect(html).not.toMatch(/[\u2028\u2029]/);
    // What a JSON-LD reader gets back is the text exactly as the upstream sent it.
    expect(blocks(html)).toEqual(structuredData(view, ORIGIN));
  });

  it('lists only the items the page shows', () => {
    const view: StructuredView = {
      kind: 'playlist',
      id: 'PLx',
      info: info('Long'),
      items: Array.from({ length: 100 }, (_, i) => item(i + 1, `Video ${i + 1}`, 60)),
    };
    const listed = (graph: readonly unknown[]) =>
      (graph[0] as { itemListElement: unknown[] }).itemListElement.length;
    expect(listed(structuredData(view, ORIGIN, 16))).toBe(16);
    // The list's own length is still the whole list's.
    expect(structuredData(view, ORIGIN, 16)[0]).toMatchObject({
      numberOfItems: info('Long').totalItems,
    });
    expect(listed(structuredData(view, ORIGIN))).toBe(100);
  });

  it('writes durations as ISO 8601', () => {
    expect([0, 5, 60, 61, 3600, 3725, 90061].map(isoDuration)).toEqual([
      'PT0S',
      'PT5S',
      'PT1M',
      'PT1M1S',
      'PT1H',
      'PT1H2M5S',
      'PT25H1M1S',
    ]);
  });

  it('escapes only what HTML could read, so the JSON means the same', () => {
    const value = { a: '<>&\u2028\u2029', b: "plain é 🎵 '" };
    const json = scriptSafeJson(value);
    expect(json).toBe('{"a":"\\u003c\\u003e\\u0026\\u2028\\u2029","b":"plain é 🎵 \\u0027"}');
    expect(JSON.parse(json)).toEqual(value);
  });
});
