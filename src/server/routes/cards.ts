import type { Handler } from 'hono';
import type { AppEnv } from '../http/app-env.ts';
import { clientAddress } from '../http/client-address.ts';
import { problemResponse, respond } from '../http/responses.ts';
import type { PreviewCards } from '../cards/preview-cards.ts';

// `GET /cards/…png`: a view's preview card (cards/preview-cards.ts). A card changes when its
// list does, under the same URL: caches keep it a while and then ask again with its validator.

const CACHE_CONTROL = 'public, max-age=600, stale-while-revalidate=86400';

export function cards(previewCards: PreviewCards | null, trustProxy: boolean): Handler<AppEnv> {
  return async (c) => {
    c.get('log').route = 'card';
    const instance = c.req.path;
    const notFound = () => problemResponse('not_found', 'There is no such card.', { instance });
    if (previewCards === null) return notFound();
    const url = new URL(c.req.url);
    const answer = await previewCards.card(
      url.pathname,
      url.searchParams,
      clientAddress(c, trustProxy),
    );
    if (answer.kind === 'not-found') return notFound();
    if (answer.kind === 'limited') {
      return problemResponse(
        'rate_limited',
        'This address has asked for many new cards just now; cards already drawn still answer.',
        { instance, retryAfterSeconds: answer.retryAfterSeconds },
      );
    }
    if (answer.kind === 'unavailable') {
      return problemResponse(
        'upstream_unavailable',
        'The catalogue could not give this list just now; ask again shortly.',
        { instance, retryAfterSeconds: answer.retryAfterSeconds ?? 5 },
      );
    }
    const headers = { ETag: answer.etag, 'Cache-Control': CACHE_CONTROL };
    const validators =
      c.req
        .header('If-None-Match')
        ?.split(',')
        .map((tag) => tag.trim()) ?? [];
    if (validators.includes(answer.etag) || validators.includes('*'))
      return respond(304, null, headers);
    return respond(200, answer.png, { ...headers, 'Content-Type': 'image/png' });
  };
}
