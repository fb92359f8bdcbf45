import type { Handler } from 'hono';
import type { PlaylistPage } from '../../shared/catalogue-schema.ts';
import { channelPath, listForUrl, playlistPath } from '../../shared/app-routes.ts';
import { embedPath, oembedQuerySchema, type OEmbedResponse } from '../../shared/oembed.ts';
import { CARD_HEIGHT, CARD_WIDTH, cardPath } from '../cards/card-address.ts';
import type { AppEnv } from '../http/app-env.ts';
import { clientAddress } from '../http/client-address.ts';
import { problemResponse, respond } from '../http/responses.ts';
import type { PageSource } from '../pages/page-source.ts';
import { previewFirstPage } from '../pages/preview-first-page.ts';
import type { ChannelTitles } from '../rendering/channel-titles.ts';
import { readStored } from '../rendering/cached-pages.ts';
import { SITE_NAME } from '../rendering/link-preview.ts';
import { escapeHtml } from '../rendering/preview-text.ts';
import { publicOrigin } from '../rendering/public-origin.ts';

// `GET /oembed?url=…`: the snippet that embeds a list's view on another site (shared/oembed.ts).
// The URL must be one of this explorer's own views of a list, on its public origin; the list
// must exist, which costs at most the lookup of its first page, as a link preview may. Upstream
// text (a title) reaches the snippet only escaped, as an attribute value.

export interface OEmbedOptions {
  pageSource: Pick<PageSource, 'peek' | 'get'>;
  channelTitles?: Pick<ChannelTitles, 'get'>;
  publicUrl?: string;
  trustProxy: boolean;
}

/** The embed's size when the consumer sets no bound: a column of rows, as on a phone. */
const WIDTH = 480;
const HEIGHT = 600;
const CACHE_AGE_SECONDS = 3600;

export function oembedRoute(options: OEmbedOptions): Handler<AppEnv> {
  const { pageSource, channelTitles, publicUrl, trustProxy } = options;
  return async (c) => {
    c.get('log').route = 'oembed';
    const instance = c.req.path;
    const parsed = oembedQuerySchema.safeParse(c.req.query());
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return problemResponse(
        'invalid_request',
        `The oEmbed query is not valid (${issue ? `${issue.path.join('.')}: ${issue.message}` : 'query'}).`,
        { instance },
      );
    }
    const query = parsed.data;
    if (query.format !== undefined && query.format !== 'json')
      return problemResponse('unsupported_format', 'Only the json format is answered.', {
        instance,
      });
    const origin = publicOrigin(c.req.raw, { publicUrl, trustProxy });
    const target = URL.parse(query.url);
    const notOurs = () =>
      problemResponse('not_found', 'This URL is not a list on this explorer.', { instance });
    if (target === null || target.origin !== origin) return notOurs();
    const list = listForUrl(target.pathname, target.searchParams);
    if (list === null) return notOurs();

    const first = await previewFirstPage(pageSource, list, clientAddress(c, trustProxy));
    if (first.kind === 'problem') {
      return first.status === 404 || first.status === 400
        ? notOurs()
        : problemResponse(first.code, first.detail, {
            instance,
            retryAfterSeconds: first.retryAfterSeconds,
          });
    }

    let title: string;
    let author: { name: string; url: string } | undefined;
    let viewPath: string;
    if (list.endpoint === 'playlist') {
      const info = readStored<PlaylistPage>(first)?.info;
      title = info?.title || `Playlist ${list.id}`;
      if (info)
        author = { name: info.channelTitle, url: `${origin}${channelPath(info.channelId)}` };
      viewPath = playlistPath(list.id);
    } else {
      const tab = list.endpoint === 'channel-videos' ? 'videos' : 'playlists';
      const name = channelTitles?.get(list.id) ?? list.id;
      title = `${name} · ${tab === 'videos' ? 'Videos' : 'Playlists'}`;
      author = { name, url: `${origin}${channelPath(list.id)}` };
      viewPath = channelPath(list.id, tab);
    }
    const width = Math.min(WIDTH, query.maxwidth ?? WIDTH);
    const height = Math.min(HEIGHT, query.maxheight ?? HEIGHT);
    const src = `${origin}${embedPath(list)}`;
    const body: OEmbedResponse = {
      version: '1.0',
      type: 'rich',
      title,
      ...(author ? { author_name: author.name, author_url: author.url } : {}),
      provider_name: SITE_NAME,
      provider_url: `${origin}/`,
      cache_age: CACHE_AGE_SECONDS,
      thumbnail_url: `${origin}${cardPath(viewPath)}`,
      thumbnail_width: CARD_WIDTH,
      thumbnail_height: CARD_HEIGHT,
      html:
        `<iframe src="${escapeHtml(src)}" width="${width}" height="${height}" ` +
        `title="${escapeHtml(title)}" loading="lazy" style="border:0;max-width:100%" ` +
        `referrerpolicy="strict-origin-when-cross-origin"></iframe>`,
      width,
      height,
    };
    return respond(200, JSON.stringify(body), {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': `public, max-age=${CACHE_AGE_SECONDS}`,
    });
  };
}
