import type { Handler } from 'hono';
import type { AppEnv } from '../http/app-env.ts';
import { JSON_TYPE, respond } from '../http/responses.ts';
import type { UpstreamClient } from '../upstream/client.ts';

// Probes for an orchestrator or a balancer. /healthz: the process answers. /readyz: it should
// get traffic: not while it is starting (the renderer still loading, which the first visitors
// would wait for), not once shutdown began, nor while the upstream refuses its credentials (every
// lookup would fail). A replica that lost Redis says it is degraded, and why, but stays ready:
// it still serves. Both are public, so they say only that and why: the quota and cache
// figures are for operators, on /metrics (metrics.ts).

export interface ReadinessSources {
  upstream: Pick<UpstreamClient, 'health'>;
  /** True once shutdown began. */
  isStopping: () => boolean;
  /** True while the process, already listening, loads its renderer (start-explorer.ts). */
  isStarting?: () => boolean;
  /**
   * Why the state replicas share is unreachable, or undefined while it is (or there are no
   * others: shared-state/deployment-state.ts). A replica without it still serves (its own
   * cache, its lease of the quota), so this makes it degraded but still ready.
   */
  sharingDown: () => string | undefined;
}

const NOT_STORED = { 'Content-Type': JSON_TYPE, 'Cache-Control': 'no-store' };

export const healthz: Handler<AppEnv> = (c) => {
  c.get('log').route = 'healthz';
  return respond(200, '{"status":"ok"}', NOT_STORED);
};

export function readyz(sources: ReadinessSources): Handler<AppEnv> {
  return (c) => {
    c.get('log').route = 'readyz';
    const health = sources.upstream.health();
    const sharing = sources.sharingDown();
    const starting = sources.isStarting?.() ?? false;
    const status = sources.isStopping()
      ? 'stopping'
      : starting
        ? 'starting'
        : health.credentialsRejected || sharing !== undefined
          ? 'degraded'
          : 'ready';
    const body = {
      status,
      reason: health.credentialsRejected
        ? 'upstream_credentials_rejected'
        : sharing !== undefined
          ? 'shared_state_unavailable'
          : undefined,
      detail: sharing === undefined ? undefined : `redis: ${sharing}`,
    };
    // Only what stops every lookup takes the replica out of rotation.
    const unready = sources.isStopping() || starting || health.credentialsRejected;
    return respond(unready ? 503 : 200, JSON.stringify(body), NOT_STORED);
  };
}
