import { XMLBuilder } from 'fast-xml-parser';
import { generateJsonFeed } from 'feedsmith';
import { channelPath, playlistPath } from '../../shared/app-routes.ts';
import {
  FEED_FORMATS,
  feedPath,
  type FeedFormat,
  jsonFeedSchema,
  type JsonFeed,
} from '../../shared/feeds.ts';
import { platformChannelUrl, platformPlaylistUrl, watchUrl } from '../../shared/platform-links.ts';
import { SITE_NAME } from '../rendering/link-preview.ts';
import type { FeedContent, FeedItem } from './feed-source.ts';
import { htmlOfText, webUrl } from './feed-values.ts';

// A list's feed in each format (Atom and RSS by fast-xml-parser's builder, JSON Feed by
// feedsmith) from one description of its content (feed-source.ts). Every entry links to the
// video on the platform and to the explorer's view of it. Text from the upstream may hold
// anything, so it is always passed as text for the builder to escape: the XML formats drop only
// the characters XML 1.0 cannot carry (never the entry), and RSS descriptions, which readers
// treat as HTML, are HTML showing the text. A URL from the upstream goes out only as an absolute
// http(s) URL, or not at all (feed-values.ts).

/** Characters XML 1.0 forbids (§2.2), and half surrogate pairs. */
const NOT_XML = /(?![\t\n\r\u007F-\u009F])\p{Cc}|[\uFFFE\uFFFF]/gu;
const xmlText = (text: string) => text.toWellFormed().replace(NOT_XML, '');

/** An image's type by its path's extension (thumbnails are JPEG unless named otherwise). */
function imageType(url: string): string {
  const extension = /\.([a-z]+)$/i.exec(URL.parse(url)?.pathname ?? '')?.[1]?.toLowerCase();
  return extension === 'png' ? 'image/png' : extension === 'webp' ? 'image/webp' : 'image/jpeg';
}

interface Links {
  /**
   * The entry's identity, the same however the list changes around it: the video's own page
   * (in the list, for a playlist), without a position that an item removed before it would
   * change, so that a reader never sees a known entry as new.
   */
  id: string;
  /** The platform's page for the entry. */
  watch: string;
  /** The explorer's view at the entry. */
  view: string;
  thumbnail: string | null;
}

function linksOf(content: FeedContent, item: FeedItem, origin: string): Links {
  const inPlaylist = content.list === 'playlist' && item.position !== null;
  return {
    id: content.list === 'playlist' ? watchUrl(item.videoId, content.id) : watchUrl(item.videoId),
    watch: inPlaylist ? watchUrl(item.videoId, content.id, item.position!) : watchUrl(item.videoId),
    view: `${origin}${
      inPlaylist ? playlistPath(content.id, { index: item.position! }) : channelPath(content.id)
    }`,
    thumbnail: item.thumbnail ? webUrl(item.thumbnail.url, origin) : null,
  };
}

/** What the feed says about its order: readers sort by date, people read the description. */
function aboutText(content: FeedContent): string {
  const order =
    content.order === 'newest-first'
      ? 'The newest videos first.'
      : 'The end of the playlist, where new items are added: the last added first.';
  return content.description ? `${content.description}\n\n${order}` : order;
}

const viewOf = (content: FeedContent, origin: string) =>
  `${origin}${content.list === 'playlist' ? playlistPath(content.id) : channelPath(content.id)}`;

const platformOf = (content: FeedContent) =>
  content.list === 'playlist' ? platformPlaylistUrl(content.id) : platformChannelUrl(content.id);

/** The newest date among the entries: when the feed last changed, as far as it can say. */
export function feedUpdated(content: FeedContent): Date {
  const times = content.items.map((item) => item.published.getTime());
  return new Date(times.length > 0 ? Math.max(...times) : 0);
}

/**
 * The XML formats through fast-xml-parser's builder: every text escaped as text (never CDATA,
 * whose pretty-printing would add white space to a title, and which `]]>` in a title would end),
 * on one line.
 */
const xml = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  processEntities: true,
  suppressEmptyNode: true,
  // `isPermaLink="false"` stays a value: XML has no bare attributes.
  suppressBooleanAttributes: false,
  format: false,
});
const DECLARATION = { '@version': '1.0', '@encoding': 'utf-8' };

/** The list's own image, when it has a usable one. */
const imageOf = (content: FeedContent, origin: string) =>
  content.image ? webUrl(content.image.url, origin) : null;

function atomDocument(content: FeedContent, origin: string, self: string): string {
  const image = imageOf(content, origin);
  const person = (name: string | null) => (name ? { author: { name: xmlText(name) } } : {});
  return xml.build({
    '?xml': DECLARATION,
    feed: {
      '@xmlns': 'http://www.w3.org/2005/Atom',
      id: self,
      title: { '@type': 'text', '#text': xmlText(content.title) },
      subtitle: { '@type': 'text', '#text': xmlText(aboutText(content)) },
      updated: feedUpdated(content).toISOString(),
      link: [
        { '@href': self, '@rel': 'self', '@type': FEED_FORMATS.atom.type },
        { '@href': viewOf(content, origin), '@rel': 'alternate', '@type': 'text/html' },
        { '@href': platformOf(content), '@rel': 'related', '@type': 'text/html' },
      ],
      ...(image ? { logo: image } : {}),
      ...person(content.channelTitle),
      generator: SITE_NAME,
      entry: content.items.map((item) => {
        const links = linksOf(content, item, origin);
        return {
          id: links.id,
          title: { '@type': 'text', '#text': xmlText(item.title) },
          updated: item.published.toISOString(),
          published: item.published.toISOString(),
          link: [
            { '@href': links.watch, '@rel': 'alternate', '@type': 'text/html' },
            { '@href': links.view, '@rel': 'related', '@type': 'text/html' },
            ...(links.thumbnail
              ? [
                  {
                    '@href': links.thumbnail,
                    '@rel': 'enclosure',
                    '@type': imageType(links.thumbnail),
                  },
                ]
              : []),
          ],
          ...person(item.channelTitle),
          ...(item.description
            ? { summary: { '@type': 'text', '#text': xmlText(item.description) } }
            : {}),
        };
      }),
    },
  }) as string;
}

function rssDocument(content: FeedContent, origin: string, self: string): string {
  const image = imageOf(content, origin);
  return xml.build({
    '?xml': DECLARATION,
    rss: {
      '@version': '2.0',
      '@xmlns:atom': 'http://www.w3.org/2005/Atom',
      channel: {
        title: xmlText(content.title),
        link: viewOf(content, origin),
        description: xmlText(htmlOfText(aboutText(content))),
        'atom:link': { '@href': self, '@rel': 'self', '@type': FEED_FORMATS.rss.type },
        lastBuildDate: feedUpdated(content).toUTCString(),
        generator: SITE_NAME,
        ...(image
          ? {
              image: {
                url: image,
                title: xmlText(content.title),
                link: viewOf(content, origin),
              },
            }
          : {}),
        item: content.items.map((item) => {
          const links = linksOf(content, item, origin);
          return {
            title: xmlText(item.title),
            link: links.watch,
            // Not a permalink: readers then take `link`, the video, as the entry's address.
            guid: { '@isPermaLink': 'false', '#text': links.id },
            comments: links.view,
            pubDate: item.published.toUTCString(),
            ...(item.description ? { description: xmlText(htmlOfText(item.description)) } : {}),
            ...(links.thumbnail
              ? {
                  enclosure: {
                    '@url': links.thumbnail,
                    '@length': '0',
                    '@type': imageType(links.thumbnail),
                  },
                }
              : {}),
          };
        }),
      },
    },
  }) as string;
}

/** The JSON Feed 1.1 document as an object (the updates stream carries it as is). */
export function jsonFeedObject(content: FeedContent, origin: string): JsonFeed {
  const self = `${origin}${feedPath(content.list, content.id, 'json')}`;
  const image = imageOf(content, origin);
  const feed = generateJsonFeed({
    title: content.title,
    home_page_url: viewOf(content, origin),
    feed_url: self,
    description: aboutText(content),
    ...(image ? { icon: image } : {}),
    ...(content.channelTitle ? { authors: [{ name: content.channelTitle }] } : {}),
    items: content.items.map((item) => {
      const links = linksOf(content, item, origin);
      return {
        id: links.id,
        url: links.watch,
        external_url: links.view,
        title: item.title,
        content_text: item.description ?? item.title,
        date_published: item.published,
        ...(item.channelTitle ? { authors: [{ name: item.channelTitle }] } : {}),
        ...(links.thumbnail
          ? {
              image: links.thumbnail,
              attachments: [{ url: links.thumbnail, mime_type: imageType(links.thumbnail) }],
            }
          : {}),
      };
    }),
  }) as Partial<JsonFeed>;
  // JSON Feed 1.1 requires `items` even when there are none; the generator leaves an empty one
  // out. Read with the shared schema: what the Following view will read is what is sent.
  return jsonFeedSchema.parse({ ...feed, items: feed.items ?? [] });
}

export function feedDocument(content: FeedContent, format: FeedFormat, origin: string): string {
  const self = `${origin}${feedPath(content.list, content.id, format)}`;
  if (format === 'atom') return atomDocument(content, origin, self);
  if (format === 'rss') return rssDocument(content, origin, self);
  return JSON.stringify(jsonFeedObject(content, origin));
}
