import { createHash, timingSafeEqual } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Hono, type Context } from 'hono';
import { etag } from 'hono/etag';
import { endpoints, type EndpointName } from '../shared/endpoints.ts';
import type { CatalogueStore } from './catalogue-db.ts';
import { createLookups, type LookupRequest, type LookupResult } from './catalogue-lookups.ts';
import { continuationPlace, createContinuationCodec } from './continuation.ts';
import {
  faultSettingsSchema,
  latencyFor,
  NO_FAULTS,
  type FaultSettings,
} from './fault-settings.ts';
import { problemResponse } from './problem-response.ts';
import type { ThumbnailFiles } from './thumbnail-files.ts';
import { parseThumbnailRequest, THUMBNAIL_PATH_PREFIX } from './thumbnails.ts';

// The Video Catalogue Lookup Service (docs/catalogue-api.md) over the embedded store: the HTTP
// layer, which checks credentials, applies the fault switches and writes problem documents.
// A factory taking its dependencies, so tests can call `app.request()` in-process.

export interface FaultSwitch {
  settings: FaultSettings;
}

export interface CatalogueAppOptions {
  store: CatalogueStore;
  apiKey: string;
  apiSecret: string;
  /** Signs continuations; by default derived from the secret, so they survive restarts. */
  continuationKey?: string;
  /**
   * Prefix of thumbnail URLs. Undefined: this service's own origin, as seen by the request.
   * '' gives root-relative URLs, for when another origin serves the thumbnails (the explorer).
   */
  thumbnailBaseUrl?: string;
  /** Where the thumbnails' JPEG files come from; without it, every thumbnail is a 404. */
  thumbnails?: ThumbnailFiles;
  faults?: FaultSwitch;
  /** Enables GET/PUT/DELETE /__faults; never on by default. */
  faultControl?: boolean;
  now?: () => number;
}

const ALLOW = 'GET, HEAD';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Compares credentials in constant time: both are always compared, whatever matches. */
function credentialsMatch(given: string | undefined, expected: Buffer): boolean {
  return timingSafeEqual(digest(given ?? ''), expected) && given !== undefined;
}

export function createCatalogueApp(options: CatalogueAppOptions): Hono {
  const { store, faultControl = false, now = Date.now } = options;
  const faults = options.faults ?? { settings: { ...NO_FAULTS } };
  const expectedKey = digest(options.apiKey);
  const expectedSecret = digest(options.apiSecret);
  const codec = createContinuationCodec(
    options.continuationKey ?? digest(`continuations:${options.apiSecret}`).toString('hex'),
  );
  const lookups = createLookups(store, codec);
  const handlers: Record<EndpointName, (request: LookupRequest) => LookupResult<unknown>> = {
    playlist: lookups.playlist,
    'channel-videos': lookups.channelVideos,
    'channel-playlists': lookups.channelPlaylists,
  };

  const app = new Hono();

  if (faultControl) {
    app.get('/__faults', (c) => c.json(faults.settings));
    app.put('/__faults', async (c) => {
      const parsed = faultSettingsSchema.partial().safeParse(await c.req.json().catch(() => null));
      if (!parsed.success) return problemResponse(c, 'invalid_request', parsed.error.message);
      faults.settings = { ...NO_FAULTS, ...parsed.data };
      return c.json(faults.settings);
    });
    app.delete('/__faults', (c) => {
      faults.settings = { ...NO_FAULTS };
      return c.json(faults.settings);
    });
  }

  // The lookups are read-only, so only GET and HEAD exist (spec §5.4); anything else is a 405
  // naming them. Hono answers HEAD from the GET handlers.
  app.use('*', async (c, next) => {
    if (c.req.method !== 'GET' && c.req.method !== 'HEAD') {
      return problemResponse(
        c,
        'method_not_allowed',
        `${c.req.method} is not supported; use GET.`,
        { headers: { Allow: ALLOW } },
      );
    }
    await next();
  });

  // Images as the real image host serves them (spec §2.5): no credentials, cached for a year,
  // and a strong validator (hono's etag: a digest of the bytes, and 304 for If-None-Match).
  app.get(`${THUMBNAIL_PATH_PREFIX}/*`, etag(), async (c) => {
    const request = parseThumbnailRequest(c.req.path, c.req.query('sqp'));
    const image = request && (await options.thumbnails?.read(request));
    if (!image) return problemResponse(c, 'not_found', 'No such thumbnail.');
    return c.body(new Uint8Array(image), 200, {
      'Content-Type': 'image/jpeg',
      'Cache-Control': 'public, max-age=31536000, immutable',
      'X-Content-Type-Options': 'nosniff',
    });
  });

  for (const [name, endpoint] of Object.entries(endpoints) as Array<
    [EndpointName, (typeof endpoints)[EndpointName]]
  >) {
    app.get(endpoint.path, async (c) => {
      // Spec §2.1: missing or wrong credentials are a 401, as at the real service.
      const keyOk = credentialsMatch(c.req.header('API-Key'), expectedKey);
      const secretOk = credentialsMatch(c.req.header('API-Secret'), expectedSecret);
      if (!(keyOk && secretOk)) {
        return problemResponse(
          c,
          'unauthorized',
          'Missing or wrong API-Key / API-Secret headers.',
          { headers: { 'WWW-Authenticate': 'API-Key' } },
        );
      }

      const ids = c.req.queries('id') ?? [];
      const continuations = c.req.queries('continuation') ?? [];
      const injected = await injectFault(c, name, continuations.length > 0, faults);
      if (injected) return injected;

      if (ids.length > 1 || continuations.length > 1) {
        return problemResponse(
          c,
          'repeated_parameter',
          'Give `id` and `continuation` at most once each.',
        );
      }
      const [id] = ids;
      if (id === undefined || id === '')
        return problemResponse(c, 'missing_id', 'The `id` parameter is required.');
      const [continuation] = continuations;

      const result = handlers[name]({
        id,
        // An empty continuation is the same as none: some clients send `continuation=` on page 1.
        continuation: continuation === '' ? undefined : continuation,
        thumbnailBaseUrl: options.thumbnailBaseUrl ?? new URL(c.req.url).origin,
        now: now(),
      });
      if (!result.ok) return problemResponse(c, result.code, result.detail);
      const grown =
        name === 'playlist'
          ? appendItems(result.page, id, faults.settings.appendItems)
          : result.page;
      return c.json(skewTotal(grown, faults.settings.totalItemsSkew), 200, {
        'Cache-Control': 'no-store',
      });
    });
  }

  app.notFound((c) => problemResponse(c, 'not_found', `Nothing here: ${c.req.path}`));
  app.onError((error, c) => {
    console.error(error);
    return problemResponse(c, 'internal_error', 'The catalogue failed to answer this request.');
  });

  return app;
}

interface PlaylistPageShape {
  info?: { totalItems: number };
  items: Array<Record<string, unknown> & { index: number }>;
  continuation: string | null;
}

/**
 * The `appendItems` switch: the playlist's first page counts the new items, and its last page
 * (the one without a continuation) holds them after its own, as far as it has room.
 */
function appendItems(page: unknown, id: string, append: FaultSettings['appendItems']): unknown {
  if (append === null || append.playlistId !== id) return page;
  const shape = page as PlaylistPageShape;
  const grown: PlaylistPageShape = {
    ...shape,
    info: shape.info && { ...shape.info, totalItems: shape.info.totalItems + append.count },
  };
  const last = shape.items.at(-1);
  if (shape.continuation !== null || last === undefined) return grown;
  const room = Math.min(append.count, 100 - shape.items.length);
  const added = Array.from({ length: room }, (_, i) => {
    const n = last.index + i + 1;
    return {
      ...last,
      index: n,
      id: `New${String(n).padStart(8, '0')}`,
      title: `New video ${n}`,
      viewsText: '0 views',
      publishedText: '1 minute ago',
    };
  });
  return { ...grown, items: [...shape.items, ...added] };
}

/** The `totalItemsSkew` switch: a playlist's first page states a length it does not have. */
function skewTotal(page: unknown, skew: number): unknown {
  if (skew === 0 || typeof page !== 'object' || page === null || !('info' in page)) return page;
  const info = page.info as { totalItems: number } | undefined;
  if (!info) return page;
  return { ...page, info: { ...info, totalItems: Math.max(0, info.totalItems + skew) } };
}

/**
 * Applies the fault switches (spec §5.3): latency first, then a deterministic `failNext`
 * failure, or else a random one at the configured rates.
 */
async function injectFault(
  c: Context,
  endpoint: EndpointName,
  withContinuation: boolean,
  faults: FaultSwitch,
): Promise<Response | null> {
  const settings = faults.settings;
  // A page's latency is its own: keyed by its list and its place in it (fault-settings.ts).
  const continuation = c.req.query('continuation');
  const page = `${endpoint} ${c.req.query('id') ?? ''} ${continuation === undefined ? '' : continuationPlace(continuation)}`;
  const wait = latencyFor(settings, page);
  if (wait > 0) await sleep(wait);

  let outcome: 500 | 503 | 429 | 'malformed' | null = null;
  const next = settings.failNext;
  if (
    next &&
    (next.endpoint === undefined || next.endpoint === endpoint) &&
    (next.withContinuation === undefined || next.withContinuation === withContinuation)
  ) {
    outcome = next.status;
    faults.settings = {
      ...settings,
      failNext: next.count > 1 ? { ...next, count: next.count - 1 } : null,
    };
  } else {
    const roll = Math.random();
    if (roll < settings.error500Rate) outcome = 500;
    else if (roll < settings.error500Rate + settings.rate429Rate) outcome = 429;
    else if (roll < settings.error500Rate + settings.rate429Rate + settings.malformedRate)
      outcome = 'malformed';
  }

  switch (outcome) {
    case null:
      return null;
    case 'malformed':
      // A body cut off mid-way, as a broken proxy or a crashed worker would send it.
      return c.body('{"items":[{"id":"', 200, { 'Content-Type': 'application/json' });
    case 429:
      return problemResponse(c, 'rate_limited', 'Injected fault: too many requests.', {
        headers: { 'Retry-After': String(settings.retryAfterSeconds) },
      });
    default:
      return problemResponse(c, 'injected_fault', `Injected fault: ${outcome}.`, {
        status: outcome,
      });
  }
}
