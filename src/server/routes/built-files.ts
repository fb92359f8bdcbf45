import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../http/app-env.ts';
import { negotiateEncoding } from '../http/compression.ts';
import { notModified, variantTag, type RequestHeaders } from '../http/representation.ts';
import { respond, type HeaderRecord } from '../http/responses.ts';
import type { StaticFile, StaticSite } from '../rendering/static-files.ts';

// The build's own files (static-files.ts) at their paths, with their precompressed copies once
// those are ready. A missing file under /assets/ is a plain 404: HTML in place of a script or
// a style would only confuse the browser. Any other path is left to the app's pages.

function sendFile(request: RequestHeaders, file: StaticFile): Response {
  const accepted = negotiateEncoding(request.header('accept-encoding'));
  const encoding = accepted !== null && file.encoded[accepted] !== undefined ? accepted : null;
  const headers: HeaderRecord = {
    'Content-Type': file.contentType,
    'Cache-Control': file.cacheControl,
    ETag: variantTag(file.etag, encoding),
  };
  if (file.contentSecurityPolicy !== undefined)
    headers['Content-Security-Policy'] = file.contentSecurityPolicy;
  if (file.encoded.br !== undefined || file.encoded.gzip !== undefined)
    headers.Vary = 'Accept-Encoding';
  if (notModified(request.header('if-none-match'), file.etag)) return respond(304, null, headers);
  if (encoding === null) return respond(200, file.body, headers);
  return respond(200, file.encoded[encoding] as Buffer, {
    ...headers,
    'Content-Encoding': encoding,
  });
}

export function builtFiles(site: StaticSite | null): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    if (site === null) return next();
    const path = c.req.path;
    const file = site.files.get(path);
    if (file !== undefined) {
      c.get('log').route = 'static';
      return sendFile(c.req, file);
    }
    if (path.startsWith('/assets/')) {
      c.get('log').route = 'static';
      return respond(404, 'Not Found', {
        'Content-Type': 'text/plain; charset=utf-8',
        'Cache-Control': 'no-store',
      });
    }
    return next();
  };
}
