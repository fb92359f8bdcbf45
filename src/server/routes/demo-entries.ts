import type { Handler } from 'hono';
import type { DemoEntry } from '../../shared/explorer-api.ts';
import type { AppEnv } from '../http/app-env.ts';
import { JSON_TYPE, problemResponse, respond } from '../http/responses.ts';

// `GET /api/demo`: what the home page offers to open, when the upstream is the embedded demo
// catalogue; a real upstream has no such list, so then it is a 404.

export function demoEntries(entries: DemoEntry[] | null): Handler<AppEnv> {
  const body = entries === null ? null : JSON.stringify({ entries });
  return (c) => {
    c.get('log').route = 'demo';
    if (body === null) {
      return problemResponse('not_found', 'This explorer is not running the demo catalogue.', {
        instance: c.req.path,
      });
    }
    return respond(200, body, {
      'Content-Type': JSON_TYPE,
      'Cache-Control': 'public, max-age=300',
    });
  };
}
