import type { Handler } from 'hono';
import type { AppEnv } from '../app-env.ts';
import { JSON_TYPE, respond } from '../http/responses.ts';
import type { UpstreamClient } from '../upstream-client.ts';

// Probes for an orchestrator or a balancer. /healthz: the process answers. /readyz: it should
// get traffic: not once shutdown began, nor while the upstream refuses its credentials (every
// lookup would fail). Both are public, so they say only that and why: the quota and cache
// figures are for operators, on /metrics (metrics.ts).

export interface ReadinessSources {
  upstream: Pick<UpstreamClient, 'health'>;
  /** True once shutdown began. */
  isStopping: () => boolean;
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
    const status = sources.isStopping()
      ? 'stopping'
      : health.credentialsRejected
        ? 'degraded'
        : 'ready';
    const body = {
      status,
      reason: health.credentialsRejected ? 'upstream_credentials_rejected' : undefined,
    };
    return respond(status === 'ready' ? 200 : 503, JSON.stringify(body), NOT_STORED);
  };
}
