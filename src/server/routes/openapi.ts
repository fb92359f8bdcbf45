import type { Handler } from 'hono';
import type { AppEnv } from '../http/app-env.ts';
import { etagOf, sendRepresentation, type Representation } from '../http/representation.ts';
import { HTML_TYPE, JSON_TYPE } from '../http/responses.ts';
import { renderReferencePage } from '../openapi/reference-page.ts';

// GET /api/openapi.json and GET /api/reference: the API described for tools and for people
// (openapi/). Both are the same bytes for the life of the process, so each is built on first
// request and then sent like the app's other fixed answers: a strong validator for 304s, a
// compressed copy made once, and the security headers every response carries.

/** Long enough to spare repeated fetches, short enough that a deploy shows within minutes. */
const CACHE_CONTROL = 'public, max-age=300';

function lazyRepresentation(build: () => string): () => Representation {
  let representation: Representation | undefined;
  return () => {
    if (representation === undefined) {
      const body = Buffer.from(build());
      representation = { body, etag: etagOf(body), encoded: {} };
    }
    return representation;
  };
}

type Json = Record<string, unknown>;

/** The document as JSON, for tools. `document` builds it once (openapi-document.ts). */
export function openApiJson(document: () => Json): Handler<AppEnv> {
  const bytes = lazyRepresentation(() => JSON.stringify(document()));
  return (c) => {
    c.get('log').route = 'openapi';
    return sendRepresentation(c.req, bytes(), 200, {
      'Content-Type': JSON_TYPE,
      'Cache-Control': CACHE_CONTROL,
    });
  };
}

/** The document as a page to read. */
export function apiReference(document: () => Json): Handler<AppEnv> {
  const bytes = lazyRepresentation(() => renderReferencePage(document()));
  return (c) => {
    c.get('log').route = 'api-reference';
    return sendRepresentation(c.req, bytes(), 200, {
      'Content-Type': HTML_TYPE,
      'Cache-Control': CACHE_CONTROL,
    });
  };
}
