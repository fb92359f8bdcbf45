import { hash } from 'node:crypto';
import type { Context, Handler } from 'hono';
import {
  FEED_FORMATS,
  readFeedPath,
  readUpdatesQuery,
  UPDATES_MAX_LISTS,
  type FeedFormat,
  type FeedList,
  type FeedUpdateLine,
} from '../../shared/feeds.ts';
import type { AppEnv } from '../http/app-env.ts';
import { clientAddress } from '../http/client-address.ts';
import { problemResponse, respond } from '../http/responses.ts';
import { problem } from '../../shared/problem.ts';
import type { FeedSource } from '../feeds/feed-source.ts';
import { publicOrigin } from '../rendering/public-origin.ts';

// `GET /feeds/{playlist|channel}/ID[.atom|.rss|.json]`: a list's feed (feeds/). A feed reader
// polls: every poll is answered from the page source's cache while the list's pages are fresh
// (one upstream lookup per freshness window at most, however many readers poll, merged when
// they poll at once), and with a validator, so that a poll of an unchanged feed is a 304.

// The writers (and their XML and JSON Feed libraries) load with the first feed asked for, not
// with the process: most replicas start, and many run, without ever writing one.
const feedDocuments = () => import('../feeds/feed-documents.ts');

/** As long as a channel's newest page stays fresh in the cache (page-source.ts). */
const MAX_AGE_SECONDS = 300;

/** The format an Accept header asks for, when the path names none: Atom unless told otherwise. */
function negotiate(accept: string | undefined): FeedFormat {
  const wanted = (accept ?? '').toLowerCase();
  if (wanted.includes(FEED_FORMATS.json.type) || wanted.includes('application/json')) return 'json';
  if (wanted.includes(FEED_FORMATS.rss.type)) return 'rss';
  return 'atom';
}

export interface FeedRouteOptions {
  feedSource: FeedSource;
  publicUrl?: string;
  trustProxy: boolean;
}

export function feeds({ feedSource, publicUrl, trustProxy }: FeedRouteOptions): Handler<AppEnv> {
  return async (c) => {
    c.get('log').route = 'feed';
    const instance = c.req.path;
    const address = readFeedPath(c.req.path);
    if (address === null)
      return problemResponse(
        'not_found',
        'There is no such feed: a feed is /feeds/playlist/ID or /feeds/channel/ID.',
        {
          instance,
        },
      );
    const answer = await feedSource.read(address, clientAddress(c, trustProxy));
    if (answer.kind === 'problem') {
      // A list the catalogue does not have has no feed: a problem, never an empty feed.
      if (answer.status === 404 || answer.status === 400)
        return problemResponse('not_found', `The catalogue has no ${address.list} ${address.id}.`, {
          instance,
        });
      return problemResponse(answer.code, answer.detail, {
        instance,
        retryAfterSeconds: answer.retryAfterSeconds,
      });
    }
    const format = address.format ?? negotiate(c.req.header('accept'));
    const origin = publicOrigin(c.req.raw, { publicUrl, trustProxy });
    const { feedDocument, feedUpdated } = await feedDocuments();
    const body = feedDocument(answer.content, format, origin);
    const etag = `"${hash('sha1', body, 'base64url')}"`;
    const updated = feedUpdated(answer.content);
    const headers: Record<string, string> = {
      ETag: etag,
      'Cache-Control': `public, max-age=${MAX_AGE_SECONDS}`,
      // Without an extension the answer depends on Accept.
      ...(address.format === undefined ? { Vary: 'Accept' } : {}),
      ...(updated.getTime() > 0 ? { 'Last-Modified': updated.toUTCString() } : {}),
    };
    const ifNoneMatch = c.req.header('if-none-match');
    const since = Date.parse(c.req.header('if-modified-since') ?? '');
    const unchanged =
      ifNoneMatch !== undefined
        ? ifNoneMatch.split(',').some((tag) => [etag, '*', `W/${etag}`].includes(tag.trim()))
        : Number.isFinite(since) &&
          updated.getTime() > 0 &&
          Math.floor(updated.getTime() / 1000) * 1000 <= since;
    if (unchanged) return respond(304, null, headers);
    return respond(200, body, {
      ...headers,
      'Content-Type': `${FEED_FORMATS[format].type}; charset=utf-8`,
    });
  };
}

/** The lists `?lists=` names (the updates and their cost), or the problem to answer. */
export function namedLists(c: Context<AppEnv>): Array<{ list: FeedList; id: string }> | Response {
  const lists = readUpdatesQuery(c.req.query('lists'));
  return (
    lists ??
    problemResponse(
      'invalid_request',
      `Name 1 to ${UPDATES_MAX_LISTS} lists as lists=playlist:ID,channel:ID,… with well-formed IDs.`,
      { instance: c.req.path },
    )
  );
}

/**
 * `GET /feeds/updates?lists=…`: the feeds of many lists in one answer, for the Following view:
 * NDJSON, a line per list as soon as it is read, each with what it cost in upstream lookups or
 * its problem (a 429 with its wait, which the view honours). The lists are read in parallel; a
 * catalogue that refuses the explorer's key costs one lookup in all, since the breaker lets one
 * trial call out and then answers every list not held fresh with `upstream_credentials_rejected`
 * (upstream/breaker.ts). The answer stays a 200 stream, so lists held fresh still come.
 */
export function feedUpdates({
  feedSource,
  publicUrl,
  trustProxy,
}: FeedRouteOptions): Handler<AppEnv> {
  return (c) => {
    c.get('log').route = 'feed-updates';
    const lists = namedLists(c);
    if (lists instanceof Response) return lists;
    const client = clientAddress(c, trustProxy);
    const origin = publicOrigin(c.req.raw, { publicUrl, trustProxy });
    const encoder = new TextEncoder();
    const body = new ReadableStream<Uint8Array>({
      async start(controller) {
        const { jsonFeedObject } = await feedDocuments();
        await Promise.all(
          lists.map(async (address) => {
            const name = `${address.list}:${address.id}`;
            const answer = await feedSource.read(address, client).catch(() => null);
            const line: FeedUpdateLine =
              answer === null
                ? { list: name, problem: problem('internal_error', 'The feed could not be read.') }
                : answer.kind === 'feed'
                  ? {
                      list: name,
                      lookups: answer.lookups,
                      feed: jsonFeedObject(answer.content, origin),
                    }
                  : {
                      list: name,
                      problem: problem(answer.code, answer.detail, {
                        status: answer.status,
                        retryAfter: answer.retryAfterSeconds,
                      }),
                    };
            controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
          }),
        );
        controller.close();
      },
    });
    return new Response(body, {
      status: 200,
      headers: {
        'Content-Type': 'application/x-ndjson; charset=utf-8',
        'Cache-Control': 'no-store',
      },
    });
  };
}
