import type { HttpBindings } from '@hono/node-server';

// What every handler of the explorer app may read from its context: the Node request (for the
// client's address) and the request's log line, which handlers fill in as they answer.

/** The fields of a request's log line that handlers set (observability/request-log.ts). */
export interface RequestLog {
  route: string;
  cache?: string;
  upstreamStatus?: number;
  upstreamAttempts?: number;
}

export type AppEnv = {
  Bindings: Partial<HttpBindings>;
  Variables: { log: RequestLog; reqId: string };
};
