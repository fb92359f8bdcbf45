import type { Handler } from 'hono';
import type { AppEnv } from '../http/app-env.ts';
import { problemResponse, respond } from '../http/responses.ts';
import { THUMBNAIL_PREFIX, type ThumbnailProxy } from '../upstream/thumbnail-proxy.ts';

// `GET /thumbnails/…`: the embedded catalogue's thumbnails through this origin
// (thumbnail-proxy.ts); without the embedded catalogue there are none.

export function thumbnails(proxy: ThumbnailProxy | null): Handler<AppEnv> {
  return async (c) => {
    c.get('log').route = 'thumbnail';
    const notFound = () =>
      problemResponse('not_found', 'No such thumbnail.', { instance: c.req.path });
    if (proxy === null) return notFound();
    // The path and the query exactly as sent, from the prefix on.
    const url = c.req.url;
    const answer = await proxy.fetch(
      url.slice(url.indexOf(THUMBNAIL_PREFIX, url.indexOf('//') + 2)),
      c.req.header('If-None-Match'),
    );
    if (answer.status === 404) return notFound();
    if (answer.status === 304) return respond(304, null, answer.headers);
    if (answer.status !== 200) {
      return problemResponse('upstream_error', 'The thumbnail could not be fetched.', {
        instance: c.req.path,
      });
    }
    return respond(200, answer.body, answer.headers);
  };
}
