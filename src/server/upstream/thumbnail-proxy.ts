import { Pool } from 'undici';

// Thumbnails through the explorer's own origin: the embedded catalogue serves them and is
// reachable on loopback only, so the explorer starts it with root-relative thumbnail URLs
// (`/thumbnails/vi/<id>/hqdefault.jpg?sqp=…`, spec §2.5) and passes those requests on. That way
// they load when the explorer is opened from another machine, and the CSP's img-src 'self' covers
// them. Thumbnails need no credentials and cost no quota; only the path, the query and a
// validator go on, and the image's type, caching and validator come back.

export interface ThumbnailAnswer {
  status: number;
  body: Buffer | null;
  headers: Record<string, string>;
}

export interface ThumbnailProxy {
  /**
   * `pathAndQuery` starts with /thumbnails/; `ifNoneMatch` is the browser's, for a 304 when its
   * copy is current.
   */
  fetch(pathAndQuery: string, ifNoneMatch?: string): Promise<ThumbnailAnswer>;
  close(): Promise<void>;
}

export const THUMBNAIL_PREFIX = '/thumbnails/';
const PATH_PATTERN = /^\/thumbnails\/[A-Za-z0-9_\-./]{1,200}$/;
const QUERY_PATTERN = /^[\x21-\x7E]{0,512}$/;
/** Response headers passed on; the security headers are the explorer's own. */
const PASSED_HEADERS = ['content-type', 'cache-control', 'etag', 'last-modified'];

export function createThumbnailProxy(options: {
  baseUrl: string;
  timeoutMs?: number;
  maxBytes?: number;
}): ThumbnailProxy {
  const { timeoutMs = 5000, maxBytes = 512 * 1024 } = options;
  const pool = new Pool(new URL(options.baseUrl).origin, {
    connections: 32,
    maxResponseSize: maxBytes,
  });
  const notFound: ThumbnailAnswer = { status: 404, body: null, headers: {} };

  return {
    async fetch(pathAndQuery, ifNoneMatch) {
      const mark = pathAndQuery.indexOf('?');
      const path = mark === -1 ? pathAndQuery : pathAndQuery.slice(0, mark);
      const query = mark === -1 ? '' : pathAndQuery.slice(mark + 1);
      if (!PATH_PATTERN.test(path) || path.includes('..') || !QUERY_PATTERN.test(query))
        return notFound;
      try {
        const response = await pool.request({
          method: 'GET',
          path: pathAndQuery,
          headers: {
            Accept: 'image/jpeg,image/*',
            ...(ifNoneMatch === undefined ? {} : { 'If-None-Match': ifNoneMatch }),
          },
          signal: AbortSignal.timeout(timeoutMs),
        });
        const body = Buffer.from(await response.body.arrayBuffer());
        const { statusCode } = response;
        if (statusCode === 404) return notFound;
        if (statusCode !== 200 && statusCode !== 304)
          return { status: 502, body: null, headers: {} };
        const headers: Record<string, string> = {};
        for (const name of PASSED_HEADERS) {
          const value = response.headers[name];
          if (typeof value === 'string') headers[name] = value;
        }
        return { status: statusCode, body: statusCode === 304 ? null : body, headers };
      } catch {
        return { status: 502, body: null, headers: {} };
      }
    },
    close: () => pool.close(),
  };
}
