import type { HttpBindings } from '@hono/node-server';
import type { QueryRead } from './query.ts';

// What every handler of the explorer app may read from its context: the Node request (for the
// client's address), the request's log line, which handlers fill in as they answer, and what an
// operation of the API declares, read before its handler runs (operation.ts).

/** The fields of a request's log line that handlers set (observability/request-log.ts). */
export interface RequestLog {
  route: string;
  cache?: string;
  upstreamStatus?: number;
  upstreamAttempts?: number;
  /**
   * An app page's render: kept (`hit`), joined on its way (`merged`), made for this request
   * (`miss`), or refused, the client being past its allowance (`limited`).
   */
  render?: 'hit' | 'merged' | 'miss' | 'limited';
}

export type AppEnv = {
  Bindings: Partial<HttpBindings>;
  Variables: {
    log: RequestLog;
    reqId: string;
    /** The operation's path parameters by name; null when a segment lacks its shape. */
    params: Record<string, string> | null;
    /** The operation's query, read against the parameters it declares. */
    query: QueryRead;
  };
};
